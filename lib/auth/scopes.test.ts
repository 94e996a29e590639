import { describe, expect, it } from "vitest";
import { GET as getCustomers } from "@/app/api/customers/route";
import { GET as getLeads } from "@/app/api/leads/route";
import { GET as getPinTypes } from "@/app/api/pin-types/route";
import { GET as getPins } from "@/app/api/pins/route";
import { GET as getJobReport } from "@/app/api/reports/serviced-jobs/route";
import { GET as exportJobs } from "@/app/api/reports/serviced-jobs/export/route";
import { GET as getServicedJobs } from "@/app/api/serviced-jobs/route";
import { GET as getServicePlans } from "@/app/api/service-plans/route";
import type { RouteHandler } from "@/lib/api/handler";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { POST as createKey } from "@/app/api/settings/api-keys/route";
import { GET as authTest } from "@/app/api/auth/test/route";
import { SCOPES } from "@/lib/values/scopes";
import { keyScopesGranting, ROLE_SCOPES, scopesAcceptedFromKeys } from "./permissions";

const database = setupTestDatabase();

type Credentials = { key: string } | { cookie: string };
const get = (route: RouteHandler, path: string, credentials: Credentials) =>
  call<{ error_code?: string; message?: string }>(route, apiRequest(path, credentials));

const refusal = (scope: string) => ({
  status: "error",
  error_code: "INSUFFICIENT_SCOPE",
  message: `Insufficient scope: this endpoint requires the ${scope} scope`,
});

describe(`scopes (${testEngine()})`, () => {
  it("writes the legacy leads:read rule once, for keys", () => {
    expect(keyScopesGranting("customers:read")).toEqual(["leads:read"]);
    expect(keyScopesGranting("jobs:read")).toEqual(["leads:read"]);
    expect(keyScopesGranting("pin_types:read")).toEqual(["leads:read"]);
    expect(keyScopesGranting("service_plans:read")).toEqual([]);
    expect(scopesAcceptedFromKeys(["customers:read"])).toEqual(["customers:read", "leads:read"]);
  });

  it("lets a key with only leads:read read customers, serviced jobs, the job report and pin types", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id, { scopes: ["leads:read"] });
    for (const [route, path] of [
      [getLeads, "/leads"],
      [getCustomers, "/customers"],
      [getServicedJobs, "/serviced-jobs"],
      [getJobReport, "/reports/serviced-jobs"],
      [getPinTypes, "/pin-types"],
    ] as const) {
      expect((await get(route, path, { key })).status, path).toBe(200);
    }
    // leads:read grants nothing else.
    expect((await get(getServicePlans, "/service-plans", { key })).body).toEqual(
      refusal("service_plans:read"),
    );
    expect((await get(getPins, "/pins", { key })).body).toEqual(refusal("pins:read"));
  });

  it("names leads:read in a key's 403 where the legacy rule applies (contract section 4)", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id, { scopes: ["pins:read"] });
    for (const [route, path] of [
      [getCustomers, "/customers"],
      [getServicedJobs, "/serviced-jobs"],
      [getJobReport, "/reports/serviced-jobs"],
      [getPinTypes, "/pin-types"],
    ] as const) {
      const res = await get(route, path, { key });
      expect(res.status, path).toBe(403);
      expect(res.body, path).toEqual(refusal("leads:read"));
    }
  });

  it("gives a session its role's scopes only: a sales_rep reads no serviced jobs or job report", async () => {
    const company = await createCompany(database.db);
    const rep = await createUser(database.db, company.id, { role: "sales_rep" });
    const cookie = await createSessionCookie(database.db, rep);
    for (const [route, path] of [
      [getServicedJobs, "/serviced-jobs"],
      [getJobReport, "/reports/serviced-jobs"],
      [exportJobs, "/reports/serviced-jobs/export"],
    ] as const) {
      const res = await get(route, path, { cookie });
      expect(res.status, path).toBe(403);
      expect(res.body, path).toEqual(refusal("jobs:read"));
    }
    // The rep's own scopes still work.
    expect((await get(getCustomers, "/customers", { cookie })).status).toBe(200);
    expect((await get(getPinTypes, "/pin-types", { cookie })).status).toBe(200);

    const technician = await createUser(database.db, company.id, { role: "technician" });
    const techCookie = await createSessionCookie(database.db, technician);
    expect((await get(getServicedJobs, "/serviced-jobs", { cookie: techCookie })).status).toBe(200);
    expect((await get(getJobReport, "/reports/serviced-jobs", { cookie: techCookie })).status).toBe(200);
  });

  it("gives the roles the scopes extensions.md adds: pins:write, reports:read, pipeline:read", () => {
    const added = ["pins:write", "reports:read", "pipeline:read"] as const;
    const has = (role: keyof typeof ROLE_SCOPES) => added.filter((s) => ROLE_SCOPES[role].includes(s));
    expect(has("admin")).toEqual(added);
    expect(has("manager")).toEqual(added);
    expect(has("sales_rep")).toEqual(["pins:write", "pipeline:read"]);
    expect(has("technician")).toEqual(["pins:write"]);
    // Additive: no existing scope was taken from a role, and no key scope grants a new one.
    expect(ROLE_SCOPES.admin).toEqual(SCOPES);
    for (const scope of added) expect(keyScopesGranting(scope)).toEqual([]);
  });

  it("lets an admin create a key with the new scopes, and the key carries them", async () => {
    const company = await createCompany(database.db);
    const admin = await createUser(database.db, company.id, { role: "admin" });
    const cookie = await createSessionCookie(database.db, admin);
    const scopes = ["pins:write", "reports:read", "pipeline:read"];
    const created = await call<{ key: string; scopes: string[] }>(
      createKey,
      apiRequest("/settings/api-keys", { method: "POST", cookie, body: { name: "Field app", scopes } }),
    );
    expect(created.status).toBe(201);
    expect(created.body.scopes).toEqual(scopes);
    const test = await call<{ scopes: string[] }>(
      authTest,
      apiRequest("/auth/test", { key: created.body.key }),
    );
    expect(test.body.scopes).toEqual(scopes);
  });
});

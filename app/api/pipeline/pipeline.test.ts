import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { POST as upsertLead } from "@/app/api/leads/route";
import { GET as getPipeline } from "@/app/api/pipeline/route";
import { GET as getSettings, PUT as putSettings } from "@/app/api/settings/pipeline/route";
import { leads } from "@/lib/db/schema";
import type { UserRole } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { importDocument } from "@/lib/import";
import { DEFAULT_PIPELINE, type PipelineResponse } from "@/lib/schemas/pipeline";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Body = PipelineResponse & { message?: string; error_code?: string; details?: { field: string }[] };

async function signedIn(companyId: string, role: UserRole) {
  const user = await createUser(database.db, companyId, { role });
  return createSessionCookie(database.db, user);
}

async function adminTenant() {
  const company = await createCompany(database.db);
  return { companyId: company.id, cookie: await signedIn(company.id, "admin") };
}

const put = (cookie: string, stages: unknown) =>
  call<Body>(putSettings, apiRequest("/settings/pipeline", { method: "PUT", cookie, body: { stages } }));

const read = (cookie: string) => call<Body>(getPipeline, apiRequest("/pipeline", { cookie }));

const keysOf = (body: Body) => body.data.map((s) => s.key);

describe(`GET /api/pipeline (${testEngine()})`, () => {
  it("answers the default pipeline while the company has none stored", async () => {
    const { cookie } = await adminTenant();
    const res = await read(cookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "success", data: DEFAULT_PIPELINE });
    expect(keysOf(res.body)).toEqual(["new", "contacted", "quoted", "won", "lost"]);
    expect(res.body.data.map((s) => s.kind)).toEqual(["open", "open", "open", "won", "lost"]);
  });

  it("takes pipeline:read or leads:read from a key, and names pipeline:read in a 403", async () => {
    const company = await createCompany(database.db);
    for (const scopes of [["pipeline:read"], ["leads:read"]] as const) {
      const { key } = await createApiKey(database.db, company.id, { scopes });
      expect((await call(getPipeline, apiRequest("/pipeline", { key }))).status, scopes[0]).toBe(200);
    }
    const { key } = await createApiKey(database.db, company.id, { scopes: ["pins:read"] });
    const refused = await call<Body>(getPipeline, apiRequest("/pipeline", { key }));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      status: "error",
      error_code: "INSUFFICIENT_SCOPE",
      message: "Insufficient scope: this endpoint requires the pipeline:read scope",
    });
  });

  it("lets admin, manager and sales_rep sessions read it; a technician's session is refused", async () => {
    const company = await createCompany(database.db);
    for (const role of ["admin", "manager", "sales_rep"] as const) {
      expect((await read(await signedIn(company.id, role))).status, role).toBe(200);
    }
    expect((await read(await signedIn(company.id, "technician"))).status).toBe(403);
  });
});

describe(`GET/PUT /api/settings/pipeline (${testEngine()})`, () => {
  it("renames, reorders, recolors and adds stages; keys stay and a new stage gets one from its label", async () => {
    const { cookie } = await adminTenant();
    const before = await call<Body>(getSettings, apiRequest("/settings/pipeline", { cookie }));
    expect(before.body.data).toEqual(DEFAULT_PIPELINE);
    const res = await put(cookie, [
      { key: "contacted", label: "Called", color: "#0E7490", kind: "open" },
      { key: "new", label: " New ", color: "#2563eb", kind: "open" },
      { label: "Site visit!", color: "#4d7c0f", kind: "open" },
      { label: "Won!", color: "#15803d", kind: "won" }, // a new stage whose key is taken: "won-2"
      { key: "quoted", label: "Quoted", color: "#b45309", kind: "open" },
      { key: "won", label: "Closed won", color: "#15803d", kind: "won" },
      { key: "lost", label: "Lost", color: "#b91c1c", kind: "lost" },
    ]);
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(["contacted", "new", "site-visit", "won-2", "quoted", "won", "lost"]);
    expect(res.body.data[0]).toEqual({ key: "contacted", label: "Called", color: "#0e7490", kind: "open" });
    expect(res.body.data[1]!.label).toBe("New");
    // Stored: every reader sees the same list in the same order.
    expect((await read(cookie)).body).toEqual(res.body);
  });

  it("refuses bad keys, duplicate keys or labels (any case), bad colors and kinds, and no open stage", async () => {
    const { cookie } = await adminTenant();
    const bad = await put(cookie, [
      { key: "Bad Key", label: "A", color: "#000000", kind: "open" },
      { key: "b", label: "Same", color: "red", kind: "open" },
      { key: "c", label: "same", color: "#000000", kind: "maybe" },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.details!.map((d) => d.field).sort()).toEqual([
      "stages.0.key",
      "stages.1.color",
      "stages.2.kind",
    ]);
    const clash = await put(cookie, [
      { key: "a", label: "One", color: "#000000", kind: "won" },
      { key: "a", label: "ONE", color: "#000000", kind: "lost" },
      { key: "c", label: "A", color: "#000000", kind: "lost" },
    ]);
    expect(clash.status).toBe(400);
    expect(clash.body.details).toEqual([
      { field: "stages.1.key", message: 'another stage already has the key "a"' },
      { field: "stages.1.label", message: 'another stage is already named "ONE"' },
      { field: "stages.2.label", message: '"A" is another stage\'s key' },
      { field: "stages", message: "keep at least one open stage" },
    ]);
    const empty = await put(cookie, []);
    expect(empty.status).toBe(400);
    // Nothing was stored.
    expect((await read(cookie)).body.data).toEqual(DEFAULT_PIPELINE);
  });

  it("refuses to remove a stage any lead uses, archived too, naming it (409), and changes nothing", async () => {
    const { companyId, cookie } = await adminTenant();
    await database.db.insert(leads).values([
      { companyId, id: newId(ID_PREFIX.lead), name: "A", stage: "quoted", archived: true },
      { companyId, id: newId(ID_PREFIX.lead), name: "B", stage: "Won " },
      { companyId, id: newId(ID_PREFIX.lead), name: "C", stage: "won" },
    ]);
    const withoutQuotedAndWon = DEFAULT_PIPELINE.filter((s) => s.key !== "quoted" && s.key !== "won");
    const res = await put(cookie, withoutQuotedAndWon);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      status: "error",
      error_code: "STAGE_IN_USE",
      message:
        'The stage "Quoted" (quoted) is used by 1 lead; The stage "Won" (won) is used by 2 leads: ' +
        "move those leads to another stage first",
    });
    expect((await read(cookie)).body.data).toEqual(DEFAULT_PIPELINE);
    // A stage no lead uses can go.
    const ok = await put(
      cookie,
      DEFAULT_PIPELINE.filter((s) => s.key !== "contacted"),
    );
    expect(ok.status).toBe(200);
    expect(keysOf(ok.body)).toEqual(["new", "quoted", "won", "lost"]);
  });

  it("is for admins' sessions only: a sales_rep or manager may read the pipeline but not edit it", async () => {
    const { companyId } = await adminTenant();
    for (const role of ["sales_rep", "manager"] as const) {
      const cookie = await signedIn(companyId, role);
      const res = await put(cookie, DEFAULT_PIPELINE);
      expect(res.status, role).toBe(403);
      expect(res.body.error_code).toBe("FORBIDDEN");
      expect((await call(getSettings, apiRequest("/settings/pipeline", { cookie }))).status).toBe(403);
    }
    const { key } = await createApiKey(database.db, companyId);
    const byKey = await call<Body>(
      putSettings,
      apiRequest("/settings/pipeline", { method: "PUT", key, body: { stages: DEFAULT_PIPELINE } }),
    );
    expect(byKey.status).toBe(403);
  });

  it("keeps each company's pipeline to itself", async () => {
    const one = await adminTenant();
    const two = await adminTenant();
    await put(one.cookie, [{ key: "only", label: "Only", color: "#000000", kind: "open" }]);
    expect(keysOf((await read(one.cookie)).body)).toEqual(["only"]);
    expect((await read(two.cookie)).body.data).toEqual(DEFAULT_PIPELINE);
  });
});

describe(`stage normalisation on create-or-update and import (${testEngine()})`, () => {
  it("stores a stage named by its key or label, in any case and spacing, as its key; others trimmed", async () => {
    const { cookie } = await adminTenant();
    await put(cookie, [
      ...DEFAULT_PIPELINE.filter((s) => s.key !== "quoted"),
      { key: "quoted", label: "Quote sent", color: "#b45309", kind: "open" },
    ]);
    const stageOf = async (stage: unknown) => {
      const res = await call<{ stage: string | null }>(
        upsertLead,
        apiRequest("/leads", { cookie, body: { name: "Stage test", stage } }),
      );
      expect(res.status).toBe(201);
      return res.body.stage;
    };
    expect(await stageOf("New")).toBe("new");
    expect(await stageOf("  CONTACTED ")).toBe("contacted");
    expect(await stageOf("quote SENT")).toBe("quoted");
    expect(await stageOf("QUOTED")).toBe("quoted");
    expect(await stageOf("  Waiting on HOA ")).toBe("Waiting on HOA");
    expect(await stageOf(null)).toBeNull();
  });

  it("applies the same rule to imported leads, with each company's own pipeline", async () => {
    const { companyId, cookie } = await adminTenant();
    await put(cookie, [{ key: "fresh", label: "Brand new", color: "#2563eb", kind: "open" }]);
    const other = `co_stage_${newId("x")}`;
    const lead = (id: string, company_id: string, stage: string) => ({ id, company_id, name: id, stage });
    const ids = { a: newId(ID_PREFIX.lead), b: newId(ID_PREFIX.lead), c: newId(ID_PREFIX.lead) };
    await importDocument(database.db, {
      companies: [{ id: other, name: "Other" }],
      leads: [
        lead(ids.a, companyId, " brand NEW"),
        lead(ids.b, companyId, "New "),
        lead(ids.c, other, "New "),
      ],
    });
    const stored = async (company: string, id: string) =>
      (
        await database.db
          .select({ stage: leads.stage })
          .from(leads)
          .where(and(eq(leads.companyId, company), eq(leads.id, id)))
      )[0]?.stage;
    expect(await stored(companyId, ids.a)).toBe("fresh");
    expect(await stored(companyId, ids.b)).toBe("New"); // not in this company's pipeline
    expect(await stored(other, ids.c)).toBe("new"); // the default pipeline
  });
});

import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getCustomerRoute } from "@/app/api/customers/[id]/route";
import { GET as listCustomersRoute, POST as upsertCustomerRoute } from "@/app/api/customers/route";
import { GET as getLeadRoute } from "@/app/api/leads/[id]/route";
import { GET as listLeadsRoute, POST as upsertLeadRoute } from "@/app/api/leads/route";
import { getOpenApiDocument } from "@/app/api/routes";
import type { RouteHandler } from "@/lib/api/handler";
import { customers, leads } from "@/lib/db/schema";
import { customerDryRunResponseSchema, customerUpsertResponseSchema } from "@/lib/schemas/customers";
import { leadDryRunResponseSchema, leadUpsertResponseSchema } from "@/lib/schemas/leads";
import {
  apiRequest,
  call,
  createApiKey,
  createSessionCookie,
  createTenant,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import type { Scope } from "@/lib/values/scopes";

/*
 * extensions.md E1 on both create-or-update endpoints: `matched_on`, `match: "none"`, and `?dry_run=true`,
 * which matches and computes exactly as the real call but writes nothing.
 */

const database = setupTestDatabase();

type Body = Record<string, unknown>;
type ErrorBody = { details?: { field: string }[] };

const RESOURCES = [
  {
    name: "leads",
    table: leads,
    upsertRoute: upsertLeadRoute,
    getRoute: getLeadRoute,
    listRoute: listLeadsRoute,
    response: leadUpsertResponseSchema,
    dryRunResponse: leadDryRunResponseSchema,
    // A body with a name, and a change of some fields (one of them cleared).
    named: (name: string) => ({ name }),
    change: { stage: "quoted", projected_value: 1200, notes: null, tags: ["b", "a"] },
    created: "Lead created",
    updated: "Lead updated",
    write: "leads:write",
    read: "leads:read",
    // Names of the OpenAPI components of the 201 answer and of the dry run's answer.
    component: "Lead",
    path: "/leads",
  },
  {
    name: "customers",
    table: customers,
    upsertRoute: upsertCustomerRoute,
    getRoute: getCustomerRoute,
    listRoute: listCustomersRoute,
    response: customerUpsertResponseSchema,
    dryRunResponse: customerDryRunResponseSchema,
    named: (name: string) => ({ first_name: name }),
    change: { service_frequency: "monthly", property_city: "Austin", notes: null, tags: ["b", "a"] },
    created: "Customer created",
    updated: "Customer updated",
    write: "customers:write",
    read: "customers:read",
    component: "Customer",
    path: "/customers",
  },
] as const;

describe.each(RESOURCES)(`POST /api/$name: matched_on, match and dry_run (${testEngine()})`, (r) => {
  const upsert = (key: string, body: unknown, query = "") =>
    call(r.upsertRoute as RouteHandler, apiRequest(`/${r.name}${query}`, { key, body }));
  const dryRun = (key: string, body: unknown) => upsert(key, body, "?dry_run=true");
  const dryRunAs = (cookie: string, body: unknown) =>
    call(r.upsertRoute as RouteHandler, apiRequest(`/${r.name}?dry_run=true`, { cookie, body }));
  const getOne = async (key: string, id: string) =>
    (await call<{ data: Body }>(r.getRoute, apiRequest(`/${r.name}/${id}`, { key }), { id })).body.data;
  const rows = async (companyId: string) => {
    const [row] = await database.db
      .select({ n: count() })
      .from(r.table)
      .where(eq(r.table.companyId, companyId));
    return row?.n ?? 0;
  };
  /** The list's total: kept by the database's counters, so it shows a counter a dry run moved. */
  const listTotal = async (key: string) =>
    (await call<{ pagination: { total: number } }>(r.listRoute, apiRequest(`/${r.name}`, { key }))).body
      .pagination.total;
  const withoutCreation = (record: Body) =>
    Object.fromEntries(Object.entries(record).filter(([field]) => field !== "id" && field !== "created_at"));
  const fields = (res: { body: unknown }) => ((res.body as ErrorBody).details ?? []).map((d) => d.field);

  /** A stored record with a phone, an email, notes and a tag. */
  async function stored(key: string) {
    const res = await upsert(key, {
      ...r.named("Pat"),
      phone: "(512) 555-0199",
      email: "Pat@Example.com",
      notes: "Gate code 1234",
      tags: ["a"],
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  it("says what the call matched on: null when it created, then phone, email, id", async () => {
    const { key } = await createTenant(database.db);
    const created = await upsert(key, {
      ...r.named("Pat"),
      phone: "(512) 555-0199",
      email: "Pat@Example.com",
    });
    expect(created.status).toBe(201);
    expect(r.response.strict().parse(created.body)).toMatchObject({ message: r.created, matched_on: null });
    const id = created.body.id;

    const byPhone = await upsert(key, { phone: "512.555.0199", notes: "phone" });
    expect([byPhone.status, byPhone.body.id, byPhone.body.matched_on]).toEqual([200, id, "phone"]);
    expect(r.response.strict().parse(byPhone.body).message).toBe(r.updated);

    const byEmail = await upsert(key, { email: " pat@EXAMPLE.com ", phone: "512-555-0000" });
    expect([byEmail.status, byEmail.body.id, byEmail.body.matched_on]).toEqual([200, id, "email"]);

    const byId = await upsert(key, { id, phone: "999-999-9999" });
    expect([byId.status, byId.body.id, byId.body.matched_on]).toEqual([200, id, "id"]);
    // An id with nothing else to match by takes the one-statement path: the same answer.
    const byIdAlone = await upsert(key, { id, notes: "id only" });
    expect([byIdAlone.status, byIdAlone.body.matched_on]).toEqual([200, "id"]);
  });

  it('match: "none" creates a second record even though the phone and email match', async () => {
    const { key, companyId } = await createTenant(database.db);
    const first = await stored(key);
    const second = await upsert(key, {
      ...r.named("Pat again"),
      phone: "512.555.0199",
      email: "pat@example.com",
      match: "none",
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ message: r.created, matched_on: null });
    expect(second.body.id).not.toBe(first);
    expect(await rows(companyId)).toBe(2);
    // The default matches again, the newest of the two.
    const again = await upsert(key, { phone: "5125550199", match: "auto" });
    expect([again.status, again.body.id, again.body.matched_on]).toEqual([200, second.body.id, "phone"]);
  });

  it('refuses match "none" with an id, and a match other than auto or none, naming match', async () => {
    const { key, companyId } = await createTenant(database.db);
    const id = await stored(key);
    const withId = await upsert(key, { id, match: "none", notes: "x" });
    expect(withId.status).toBe(400);
    expect(withId.body).toMatchObject({ error_code: "VALIDATION_ERROR" });
    expect(fields(withId)).toEqual(["match"]);
    expect(fields(await dryRun(key, { id, match: "none" }))).toEqual(["match"]);
    for (const match of ["never", "", 1, null]) {
      const res = await upsert(key, { ...r.named("X"), match });
      expect(res.status, String(match)).toBe(400);
      expect(fields(res)).toEqual(["match"]);
    }
    expect(await rows(companyId)).toBe(1);
    expect((await getOne(key, id)).notes).toBe("Gate code 1234");
  });

  it("dry run of an update: the match, the record as stored, the result; nothing written", async () => {
    const { key, companyId } = await createTenant(database.db);
    const id = await stored(key);
    const before = await getOne(key, id);
    const total = await listTotal(key);
    const body = { phone: "512.555.0199", ...r.change };

    const dry = await dryRun(key, body);
    expect(dry.status).toBe(200);
    const answer = r.dryRunResponse.strict().parse(dry.body);
    expect(answer).toMatchObject({ status: "success", message: "Dry run", matched_on: "phone" });
    expect(answer.existing).toEqual(before);
    expect(answer.result).toMatchObject({ id, message: r.updated, matched_on: "phone", tags: ["a", "b"] });
    expect(answer.result.notes ?? null).toBeNull();

    expect(await getOne(key, id)).toEqual(before);
    expect(await rows(companyId)).toBe(1);
    expect(await listTotal(key)).toBe(total);

    const real = await upsert(key, body);
    expect(real.status).toBe(200);
    expect(real.body).toEqual(answer.result);
  });

  it("dry run of a create: nothing matched, no row, the result the real call then answers", async () => {
    const { key, companyId } = await createTenant(database.db);
    await stored(key);
    const total = await listTotal(key);
    for (const body of [
      { ...r.named("Sam"), phone: "(512) 555-0100", tags: ["x"] },
      { ...r.named("Pat twin"), phone: "512.555.0199", match: "none" },
    ]) {
      const dry = await dryRun(key, body);
      expect(dry.status).toBe(200);
      const answer = r.dryRunResponse.strict().parse(dry.body);
      expect(answer).toMatchObject({ matched_on: null, existing: null, result: { message: r.created } });
      expect(await rows(companyId)).toBe(1);
      expect(await listTotal(key)).toBe(total);

      const real = await upsert(key, body);
      expect(real.status).toBe(201);
      // Equal but for what a creation stamps: the id and the creation time.
      expect(withoutCreation(answer.result)).toEqual(withoutCreation(real.body));
      await database.db.delete(r.table).where(eq(r.table.id, real.body.id as string));
    }
  });

  it("remove_tags takes tags out after the merge: an update's added tags undone, order kept", async () => {
    const { key } = await createTenant(database.db);
    const id = await stored(key); // tags ["a"]
    await upsert(key, { id, tags: ["b", "c"] });
    const undone = await upsert(key, { id, remove_tags: ["b", "c", "not-there"] });
    expect(undone.body.tags).toEqual(["a"]);
    const both = await upsert(key, { id, tags: ["d", "e"], remove_tags: ["a", "e"] });
    expect(both.body.tags).toEqual(["d"]);
    const created = await upsert(key, { ...r.named("New"), tags: ["x", "y"], remove_tags: ["x"] });
    expect([created.status, created.body.tags]).toEqual([201, ["y"]]);
    const dry = await dryRun(key, { id, remove_tags: ["d"] });
    expect((dry.body.result as Body).tags).toEqual([]);
    expect((await getOne(key, id)).tags).toEqual(["d"]);
  });

  it("dry run answers the real call's errors (404, 400) and sees only the caller's company", async () => {
    const { key } = await createTenant(database.db);
    expect((await dryRun(key, { id: "no-such-id", notes: "x" })).status).toBe(404);
    const invalid = await dryRun(key, { email: "not-an-email" });
    expect([invalid.status, fields(invalid)]).toEqual([400, ["email"]]);
    expect((await dryRun(key, { notes: "nobody" })).status).toBe(400);
    // Another company's record: not found by id, not matched by phone.
    const other = await createTenant(database.db);
    const theirs = await stored(other.key);
    expect((await dryRun(key, { id: theirs, notes: "x" })).status).toBe(404);
    const byPhone = await dryRun(key, { ...r.named("Pat"), phone: "(512) 555-0199" });
    expect(byPhone.body).toMatchObject({ matched_on: null, existing: null });
    const badFlag = await upsert(key, r.named("X"), "?dry_run=maybe");
    expect([badFlag.status, fields(badFlag)]).toEqual([400, ["dry_run"]]);
  });

  it("a dry run needs the read scope as well: a write-only key gets 403 naming it, no record", async () => {
    const { key, companyId } = await createTenant(database.db);
    const id = await stored(key);
    const { key: writeOnly } = await createApiKey(database.db, companyId, { scopes: [r.write] });
    // To a key the 403 names the scope GET names (contract section 4: leads:read for customers too).
    const refusal = {
      status: "error",
      error_code: "INSUFFICIENT_SCOPE",
      message: "Insufficient scope: a dry run also requires the leads:read scope",
    };
    for (const query of ["?dry_run=true", "?dry_run=TRUE"]) {
      const dry = await upsert(writeOnly, { phone: "512.555.0199" }, query);
      expect([dry.status, dry.body], query).toEqual([403, refusal]);
    }
    // The scope check comes before validation (contract section 2), as for any refusal.
    expect((await dryRun(writeOnly, { email: "not-an-email" })).body).toEqual(refusal);
    expect((await upsert(writeOnly, r.named("X"), "?dry_run=maybe")).status).toBe(400);
    // Without a dry run the key writes as before and gets the record back (interface.md's rule).
    const real = await upsert(writeOnly, { phone: "512.555.0199", notes: "by phone" }, "?dry_run=false");
    expect([real.status, real.body.id]).toEqual([200, id]);
    // With the read scope (or, for a key, a scope granting it) the dry run answers.
    const grants: Scope[][] = r.read === "leads:read" ? [[r.read]] : [[r.read], ["leads:read"]];
    for (const extra of grants) {
      const { key: both } = await createApiKey(database.db, companyId, { scopes: [r.write, ...extra] });
      const dry = await dryRun(both, { phone: "512.555.0199" });
      expect([dry.status, dry.body.matched_on, (dry.body.existing as Body).id], String(extra)).toEqual([
        200,
        "phone",
        id,
      ]);
    }
  });

  it("a dry run from a session of a role with both scopes is unaffected", async () => {
    const { key, companyId } = await createTenant(database.db);
    const id = await stored(key);
    for (const role of ["sales_rep", "manager", "admin"] as const) {
      const user = await createUser(database.db, companyId, { role });
      const dry = await dryRunAs(await createSessionCookie(database.db, user), { phone: "512.555.0199" });
      expect([dry.status, dry.body.dry_run, (dry.body.existing as Body).id], role).toEqual([200, true, id]);
    }
  });

  it("a dry run of a create answers no id: none is made up for a record never stored", async () => {
    const { key, companyId } = await createTenant(database.db);
    await stored(key);
    for (const body of [
      { ...r.named("Sam"), phone: "(512) 555-0100" },
      { ...r.named("Pat twin"), phone: "512.555.0199", match: "none" },
    ]) {
      const dry = await dryRun(key, body);
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({ dry_run: true, matched_on: null, existing: null });
      const result = r.dryRunResponse.strict().parse(dry.body).result;
      expect(result).toMatchObject({ message: r.created });
      expect(result).not.toHaveProperty("id");
    }
    expect(await rows(companyId)).toBe(1);
  });

  it("a dry run answers dry_run: true and the real call never does; the document tells them apart", async () => {
    const { key } = await createTenant(database.db);
    const id = await stored(key);
    const update = await dryRun(key, { id, notes: "x" });
    expect(update.body).toMatchObject({ dry_run: true, result: { id } });
    const create = await dryRun(key, r.named("New"));
    expect(create.body.dry_run).toBe(true);
    const updated = await upsert(key, { id, notes: "y" });
    const created = await upsert(key, r.named("Newer"));
    expect([updated.status, created.status]).toEqual([200, 201]);
    expect(updated.body).not.toHaveProperty("dry_run");
    expect(created.body).not.toHaveProperty("dry_run");

    // The 200 answer is one of two schemas, told apart by dry_run (true only in the dry run's own).
    const document = getOpenApiDocument() as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    };
    const operation = document.paths[r.path]!.post!;
    const ok = (
      operation.responses as Record<string, { content: Record<string, { schema: { $ref: string } }> }>
    )["200"]!;
    const union = document.components.schemas[ok.content["application/json"]!.schema.$ref.split("/").pop()!]!;
    const dryName = `${r.component}DryRunResponse`;
    expect(union).toMatchObject({
      oneOf: [
        { $ref: `#/components/schemas/${r.component}UpsertResponse` },
        { $ref: `#/components/schemas/${dryName}` },
      ],
    });
    const dryRunSchema = document.components.schemas[dryName]!;
    expect(dryRunSchema.properties.dry_run).toMatchObject({ const: true });
    expect(dryRunSchema.required).toContain("dry_run");
    const real = document.components.schemas[`${r.component}UpsertResponse`]!;
    expect(real.properties.dry_run).toMatchObject({ const: false });
    expect(real.required).not.toContain("dry_run");
    expect((dryRunSchema.properties.result as { required: string[] }).required).not.toContain("id");
    // And the dry run's further scope, in words and as a field.
    expect(operation["x-dry-run-scopes"]).toEqual([r.read]);
    expect(operation.description).toContain(`A dry run (\`?dry_run=true\`) also needs \`${r.read}\``);
  });
});

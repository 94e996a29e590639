import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getLeadRoute, POST as postLeadById } from "@/app/api/leads/[id]/route";
import { GET as listLeadsRoute, POST as upsertLeadRoute, PUT as putLeads } from "@/app/api/leads/route";
import type { Scope } from "@/lib/values/scopes";
import { leads } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { leadSchema, leadUpsertResponseSchema } from "@/lib/schemas/leads";
import { apiRequest, call, createApiKey, createCompany, createTenant } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Body = Record<string, unknown>;
type ListBody = { status: string; data: Body[]; pagination: Body };
type ErrorBody = { status: string; message: string; error_code?: string; details?: { field: string }[] };

const tenant = (scopes?: readonly Scope[]) => createTenant(database.db, { scopes });
const upsert = (key: string, body: unknown) => call(upsertLeadRoute, apiRequest("/leads", { key, body }));
const list = (key: string, query = "") =>
  call<ListBody>(listLeadsRoute, apiRequest(`/leads${query}`, { key }));
const getOne = (key: string, id: string) =>
  call(getLeadRoute, apiRequest(`/leads/${encodeURIComponent(id)}`, { key }), { id });
const ids = (res: { body: ListBody }) => res.body.data.map((l) => l.id as string);
const fields = (res: { body: unknown }) => ((res.body as ErrorBody).details ?? []).map((d) => d.field).sort();

/** A stored lead with a chosen creation time (the API always stamps "now"). */
async function insertLead(companyId: string, values: Partial<typeof leads.$inferInsert> = {}) {
  const id = values.id ?? newId(ID_PREFIX.lead);
  await database.db.insert(leads).values({ name: "Stored lead", ...values, companyId, id });
  return id;
}
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

async function leadCount(companyId: string) {
  const [row] = await database.db.select({ n: count() }).from(leads).where(eq(leads.companyId, companyId));
  return row?.n ?? 0;
}

describe(`POST /api/leads (${testEngine()})`, () => {
  it("creates a lead: 201, flat response with both name sets, nulls for what was not given", async () => {
    const { key } = await tenant();
    const res = await upsert(key, {
      name: "  Ada Lovelace ",
      email: "Ada@Example.com",
      phone: "(555) 010-0001",
      address_street1: "1 Analytical Way",
      address_street2: "Suite 2",
      address_city: "London",
      address_state: "LDN",
      address_zip: "N1",
      address_country: "UK",
      priority: "high",
      projected_value: 1234.567,
      service_type: "Pest control",
      source: "Website",
      stage: "New",
      tags: ["vip", "spring", "vip"],
      notes: "Call after 5pm",
      follow_up_date: "2026-04-01",
      unknown_field: "ignored",
    });
    expect(res.status).toBe(201);
    const lead = leadUpsertResponseSchema.strict().parse(res.body);
    expect(lead).toMatchObject({
      status: "success",
      message: "Lead created",
      name: "Ada Lovelace",
      email: "Ada@Example.com",
      phone: "(555) 010-0001",
      address_street1: "1 Analytical Way",
      property_street1: "1 Analytical Way",
      address_street2: "Suite 2",
      property_street2: "Suite 2",
      address_city: "London",
      property_city: "London",
      address_state: "LDN",
      property_state: "LDN",
      address_zip: "N1",
      property_zip: "N1",
      address_country: "UK",
      property_country: "UK",
      priority: "high",
      projected_value: 1234.57,
      value_score: null,
      service_type: "Pest control",
      source: "Website",
      lead_source: "Website",
      stage: "new", // the default pipeline's "New" stage, stored by its key
      tags: ["vip", "spring"],
      notes: "Call after 5pm",
      follow_up_date: "2026-04-01T00:00:00.000Z",
      assigned_to: null,
      archived: false,
      archived_at: null,
      location: null,
    });
    expect(lead.id).toMatch(/^lead_/);
    expect(Date.parse(lead.created_at ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect(Object.keys(res.body)).not.toContain("unknown_field");
  });

  it("creates with only a phone or only an email, and returns null for every unset field", async () => {
    const { key } = await tenant();
    const byPhone = await upsert(key, { phone: "555-010-0002" });
    expect(byPhone.status).toBe(201);
    expect(byPhone.body).toMatchObject({ name: "", email: null, priority: null, tags: [], notes: null });
    const byEmail = await upsert(key, { email: "only@example.com" });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body.id).not.toBe(byPhone.body.id);
  });

  it("updates by id: 200, present fields overwrite, absent kept, null and empty clear, tags merged", async () => {
    const { key } = await tenant();
    const created = await upsert(key, {
      name: "Grace Hopper",
      email: "grace@example.com",
      phone: "555 010 0003",
      priority: "low",
      projected_value: 100,
      stage: "New",
      notes: "first",
      follow_up_date: "2026-05-01T09:30:00Z",
      address_city: "Arlington",
      tags: ["a", "b"],
    });
    const id = created.body.id as string;
    const res = await upsert(key, {
      id,
      stage: "Qualified",
      email: null,
      priority: null,
      projected_value: null,
      follow_up_date: null,
      notes: "",
      tags: ["c", "a", "d"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: "success",
      message: "Lead updated",
      name: "Grace Hopper",
      phone: "555 010 0003",
      address_city: "Arlington",
      property_city: "Arlington",
      stage: "Qualified",
      email: null,
      priority: null,
      projected_value: null,
      follow_up_date: null,
      notes: null,
      tags: ["a", "b", "c", "d"],
    });
    const stored = await getOne(key, id);
    expect(stored.body.data).toMatchObject({ stage: "Qualified", email: null, tags: ["a", "b", "c", "d"] });
  });

  it("answers 404 'Lead not found' for an unknown id or another company's id, and writes nothing", async () => {
    const { key, companyId } = await tenant();
    const other = await tenant();
    const foreign = await upsert(other.key, { name: "Theirs", phone: "555-010-0004" });
    const unknown = await upsert(key, { id: "lead_nope", name: "X" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: "error", message: "Lead not found" });
    const cross = await upsert(key, { id: foreign.body.id, name: "Hijack" });
    expect(cross.status).toBe(404);
    expect((await getOne(other.key, foreign.body.id as string)).body.data).toMatchObject({ name: "Theirs" });
    expect(await leadCount(companyId)).toBe(0);
  });

  it("matches by phone digits in another format, then by email in another case", async () => {
    const { key } = await tenant();
    const first = await upsert(key, { name: "Phone match", phone: "(555) 010-0005" });
    const again = await upsert(key, { phone: "+1 555.010.0005", stage: "Called" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, stage: "Called", phone: "+1 555.010.0005" });

    const byEmail = await upsert(key, { name: "Email match", email: "Mixed.Case@Example.COM" });
    const emailAgain = await upsert(key, { email: "  mixed.case@example.com ", stage: "Emailed" });
    expect(emailAgain.status).toBe(200);
    expect(emailAgain.body).toMatchObject({ id: byEmail.body.id, stage: "Emailed" });
  });

  it("prefers the phone match over the email match, and the newest of several matches", async () => {
    const { key, companyId } = await tenant();
    const byEmail = await insertLead(companyId, {
      email: "pat@example.com",
      emailNormalized: "pat@example.com",
    });
    const olderPhone = await insertLead(companyId, {
      phone: "555-010-0006",
      phoneNormalized: "5550100006",
      createdAt: minutesAgo(10),
    });
    const newerPhone = await insertLead(companyId, {
      phone: "555-010-0006",
      phoneNormalized: "5550100006",
      createdAt: minutesAgo(5),
    });
    const res = await upsert(key, { phone: "5550100006", email: "PAT@example.com" });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(newerPhone);
    expect([byEmail, olderPhone]).not.toContain(res.body.id);
    // No phone match: the email decides.
    const emailOnly = await upsert(key, { phone: "555-999-0000", email: "pat@EXAMPLE.com" });
    expect(emailOnly.body.id).toBe(byEmail);
    expect(emailOnly.body.phone).toBe("555-999-0000");
  });

  it("matches archived leads, which stay archived", async () => {
    const { key, companyId } = await tenant();
    const archivedAt = minutesAgo(60);
    const id = await insertLead(companyId, {
      phone: "555-010-0007",
      phoneNormalized: "5550100007",
      archived: true,
      archivedAt,
    });
    const res = await upsert(key, { phone: "5550100007", notes: "still interested" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, archived: true, archived_at: archivedAt.toISOString() });
    expect(ids(await list(key))).not.toContain(id);
  });

  it("refuses a new lead without name, email or phone (400, nothing written)", async () => {
    const { key, companyId } = await tenant();
    const res = await upsert(key, { notes: "who?", tags: ["x"], name: "   " });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_ERROR");
    expect(fields(res)).toEqual(["email", "name", "phone"]);
    expect(await leadCount(companyId)).toBe(0);
  });

  it("names every invalid field in details and writes nothing", async () => {
    const { key, companyId } = await tenant();
    const res = await upsert(key, {
      id: 42,
      name: "n".repeat(256),
      email: "not-an-email",
      phone: "p".repeat(256),
      priority: "urgent",
      projected_value: "100",
      follow_up_date: "next tuesday",
      tags: ["ok", 7, "t".repeat(101)],
      notes: "x".repeat(10_001),
      stage: false,
      address_city: 3,
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_ERROR");
    expect(fields(res)).toEqual(
      [
        "id",
        "name",
        "email",
        "phone",
        "priority",
        "projected_value",
        "follow_up_date",
        "tags.1",
        "tags.2",
        "notes",
        "stage",
        "address_city",
      ].sort(),
    );
    const tooMany = await upsert(key, { name: "T", tags: Array.from({ length: 101 }, (_, i) => `t${i}`) });
    expect(fields(tooMany)).toEqual(["tags"]);
    const negative = await upsert(key, { name: "T", projected_value: -1 });
    expect(fields(negative)).toEqual(["projected_value"]);
    const nullName = await upsert(key, { name: null, phone: "555" });
    expect(fields(nullName)).toEqual(["name"]);
    expect(await leadCount(companyId)).toBe(0);
  });

  it("accepts the length limits exactly, and refuses a merge past 100 tags", async () => {
    const { key } = await tenant();
    const tags = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(100, "x"));
    const res = await upsert(key, { name: "n".repeat(255), notes: "x".repeat(10_000), tags });
    expect(res.status).toBe(201);
    expect((res.body.tags as string[]).length).toBe(100);
    const over = await upsert(key, { id: res.body.id, tags: ["one more"] });
    expect(over.status).toBe(400);
    expect(fields(over)).toEqual(["tags"]);
  });

  it("creates one lead for 20 parallel upserts of the same new phone in different formats", async () => {
    const { key, companyId } = await tenant();
    const formats = ["(555) 010-0008", "555-010-0008", "+1 555 010 0008", "5550100008", "1.555.010.0008"];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upsert(key, { phone: formats[i % formats.length], tags: [`t${i}`] }),
      ),
    );
    expect(results.map((r) => r.status).sort((a, b) => b - a)).toEqual([201, ...Array<number>(19).fill(200)]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await leadCount(companyId)).toBe(1);
    const [lead] = (await list(key)).body.data;
    expect((lead?.tags as string[]).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `t${i}`).sort());
  });

  it("creates one lead for 20 parallel upserts of the same new email in different cases", async () => {
    const { key, companyId } = await tenant();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upsert(key, { email: i % 2 ? "Same.Person@Example.com" : "same.person@EXAMPLE.COM", name: `N${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(19);
    expect(await leadCount(companyId)).toBe(1);
  });

  it("needs leads:write, and runs the pipeline's checks", async () => {
    const { key: readOnly } = await tenant(["leads:read"]);
    const denied = await upsert(readOnly, { name: "X" });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error_code: "INSUFFICIENT_SCOPE" });
    expect(denied.body.message).toContain("leads:write");

    const { key } = await tenant();
    const cases: [Parameters<typeof apiRequest>[1], number, string][] = [
      [{ body: { name: "x" } }, 401, "AUTHENTICATION_REQUIRED"],
      [{ key: "fcrm_wrong", body: { name: "x" } }, 401, "INVALID_API_KEY"],
      [{ key, version: "1.0.0", body: { name: "x" } }, 400, "UNSUPPORTED_API_VERSION"],
      [{ key, version: null, body: { name: "x" } }, 400, "UNSUPPORTED_API_VERSION"],
      [{ key, rawBody: "{not json" }, 400, "INVALID_JSON"],
      [{ key, rawBody: '["a"]' }, 400, "INVALID_JSON"],
      [{ key, body: { name: "x" }, contentType: "text/plain" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [{ key, rawBody: JSON.stringify({ notes: "x".repeat(1024 * 1024) }) }, 413, "PAYLOAD_TOO_LARGE"],
    ];
    for (const [options, status, code] of cases) {
      const res = await call(upsertLeadRoute, apiRequest("/leads", options));
      expect(res.status, code).toBe(status);
      expect(res.body, code).toMatchObject({ status: "error", error_code: code });
      expect(res.headers.get("x-request-id"), code).toBeTruthy();
    }
  });
});

describe(`GET /api/leads (${testEngine()})`, () => {
  it("lists the company's leads newest first with id as tie-break, in the list shape", async () => {
    const { key, companyId } = await tenant();
    const same = minutesAgo(30);
    const oldest = await insertLead(companyId, { createdAt: minutesAgo(60) });
    const tieA = await insertLead(companyId, { id: "lead_tie_a", createdAt: same });
    const tieB = await insertLead(companyId, { id: "lead_tie_b", createdAt: same });
    const newest = await insertLead(companyId, {
      createdAt: minutesAgo(1),
      projectedValue: 99.999,
      valueScore: 0.75,
      latitude: 40.7,
      longitude: -74,
      tags: ["x"],
    });
    const res = await list(key);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("success");
    expect(ids(res)).toEqual([newest, tieB, tieA, oldest]);
    expect(res.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 4 });
    const first = leadSchema.strict().parse(res.body.data[0]);
    expect(first).toMatchObject({
      projected_value: 100,
      value_score: 0.75,
      location: [40.7, -74],
      tags: ["x"],
    });
    for (const absent of ["address_street1", "source", "status", "message"]) {
      expect(res.body.data[0]).not.toHaveProperty(absent);
    }
  });

  it("pages: limit 1, limit 1000, a page past the end, has_more", async () => {
    const { key, companyId } = await tenant();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.unshift(await insertLead(companyId, { createdAt: minutesAgo(50 - i) }));
    const pages: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await list(key, `?limit=1&page=${page}`);
      expect(res.body.pagination).toEqual({ has_more: page < 5, limit: 1, page, total: 5 });
      pages.push(...ids(res));
    }
    expect(pages).toEqual(made);
    const all = await list(key, "?limit=1000");
    expect(all.body.pagination).toEqual({ has_more: false, limit: 1000, page: 1, total: 5 });
    const past = await list(key, "?limit=2&page=4");
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toEqual({ has_more: false, limit: 2, page: 4, total: 5 });
    const middle = await list(key, "?limit=2&page=2");
    expect(ids(middle)).toEqual(made.slice(2, 4));
    expect(middle.body.pagination.has_more).toBe(true);
  });

  it.each([
    ["?page=0", "page"],
    ["?page=-1", "page"],
    ["?page=abc", "page"],
    ["?limit=0", "limit"],
    ["?limit=1001", "limit"],
    ["?limit=2.5", "limit"],
    ["?archived=yes", "archived"],
  ])("answers 400 VALIDATION_ERROR naming the parameter for %s", async (query, field) => {
    const { key } = await tenant();
    const res = await call<ErrorBody>(listLeadsRoute, apiRequest(`/leads${query}`, { key }));
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_ERROR");
    expect(fields(res)).toEqual([field]);
    expect(res.body.message).toContain(field);
  });

  it("filters archived, stage and tags, and ignores unknown parameters", async () => {
    const { key, companyId } = await tenant();
    const active = await insertLead(companyId, {
      stage: "New",
      tags: ["roof", "VIP"],
      createdAt: minutesAgo(4),
    });
    const archived = await insertLead(companyId, {
      stage: "New",
      tags: ["pool"],
      archived: true,
      archivedAt: minutesAgo(1),
      createdAt: minutesAgo(3),
    });
    const won = await insertLead(companyId, { stage: "Won", tags: ["vip"], createdAt: minutesAgo(2) });
    expect(ids(await list(key))).toEqual([won, active]);
    expect(ids(await list(key, "?archived=false"))).toEqual([won, active]);
    expect(ids(await list(key, "?archived=TRUE"))).toEqual([won, archived, active]);
    expect(ids(await list(key, "?stage=New"))).toEqual([active]);
    expect(ids(await list(key, "?stage=New&archived=true"))).toEqual([archived, active]);
    expect(ids(await list(key, "?stage=new"))).toEqual([]);
    expect(ids(await list(key, "?tags=VIP"))).toEqual([active]);
    expect(ids(await list(key, "?tags=vip"))).toEqual([won]);
    expect(ids(await list(key, `?tags=${encodeURIComponent(" vip , ,pool,roof ")}&archived=true`))).toEqual([
      won,
      archived,
      active,
    ]);
    expect(ids(await list(key, "?tags=,"))).toEqual([won, active]);
    const unknown = await list(key, "?colour=red&order=name");
    expect(unknown.status).toBe(200);
    expect(ids(unknown)).toEqual([won, active]);
  });

  it("searches name, email and phone case-insensitively, phone digits alone, wildcards literally", async () => {
    const { key, companyId } = await tenant();
    const ada = await insertLead(companyId, { name: "Ada Lovelace", createdAt: minutesAgo(5) });
    const bob = await insertLead(companyId, {
      name: "Bob",
      email: "Bob.Builder@Example.com",
      emailNormalized: "bob.builder@example.com",
      createdAt: minutesAgo(4),
    });
    const phone = await insertLead(companyId, {
      name: "Carol",
      phone: "(555) 123-4567",
      phoneNormalized: "5551234567",
      createdAt: minutesAgo(3),
    });
    const percent = await insertLead(companyId, { name: "100% Pure_Pools", createdAt: minutesAgo(2) });
    const search = async (term: string) => ids(await list(key, `?search=${encodeURIComponent(term)}`));
    expect(await search("LOVE")).toEqual([ada]);
    expect(await search("builder@EXAMPLE")).toEqual([bob]);
    expect(await search("(555) 123")).toEqual([phone]);
    expect(await search("5551234")).toEqual([phone]);
    expect(await search("555-1234")).toEqual([phone]);
    expect(await search("+1 555 123 4567")).toEqual([phone]);
    expect(await search("%")).toEqual([percent]);
    expect(await search("a_a")).toEqual([]);
    expect(await search("pure_")).toEqual([percent]);
    expect(await search("nobody")).toEqual([]);
    expect(await search("  ")).toEqual([percent, phone, bob, ada]);
    const searched = await list(key, "?search=o&limit=1");
    expect(searched.body.pagination).toMatchObject({ total: 4, has_more: true });
  });

  it("matches a term within one field, never across two, whatever characters the term holds", async () => {
    const { key, companyId } = await tenant();
    const dora = await insertLead(companyId, {
      name: "Dora",
      email: "Explorer@Example.com",
      emailNormalized: "explorer@example.com",
      phone: "(555) 987-6543",
      phoneNormalized: "5559876543",
      createdAt: minutesAgo(2),
    });
    // U+0001 separates the fields of the search document (lib/db/schema/columns.ts).
    const odd = await insertLead(companyId, { name: "Tab\u0001Name", createdAt: minutesAgo(1) });
    const search = async (term: string) => ids(await list(key, `?search=${encodeURIComponent(term)}`));
    expect(await search("doraexplorer")).toEqual([]);
    expect(await search("dora\u0001explorer")).toEqual([]);
    expect(await search("com(555)")).toEqual([]);
    expect(await search("6543555")).toEqual([]);
    expect(await search("\u0001")).toEqual([odd]);
    expect(await search("b\u0001n")).toEqual([odd]);
    expect(await search("15559876543")).toEqual([dora]);
    expect(await search("9876543")).toEqual([dora]);
  });

  it("searches the key's company alone, and text beyond ASCII by its characters", async () => {
    const { key, companyId } = await tenant();
    const other = await tenant();
    const jose = await insertLead(companyId, { name: "José Müller", createdAt: minutesAgo(2) });
    const pool = await insertLead(companyId, { name: "Pool 😀Care", createdAt: minutesAgo(1) });
    await insertLead(other.companyId, { name: "José Müller" });
    await insertLead(other.companyId, { name: "Pool 😀Care" });
    const search = async (term: string) => ids(await list(key, `?search=${encodeURIComponent(term)}`));
    expect(await search("sé mü")).toEqual([jose]);
    expect(await search("JOSÉ")).toEqual([jose]);
    // Three characters in four UTF-16 units, then two characters (under a gram) in three.
    expect(await search("l 😀")).toEqual([pool]);
    expect(await search("😀c")).toEqual([pool]);
    expect(await search("😀x")).toEqual([]);
    expect(await search("sé mx")).toEqual([]);
    const theirs = await list(other.key, `?search=${encodeURIComponent("sé mü")}`);
    expect(theirs.body.data.map((lead) => lead.name)).toEqual(["José Müller"]);
    expect(theirs.body.data[0]?.id).not.toBe(jose);
  });

  it("pages a search in the list's order, with its total on every page and past the last", async () => {
    const { key, companyId } = await tenant();
    const tie = minutesAgo(10);
    await insertLead(companyId, { name: "Match one", createdAt: tie });
    await insertLead(companyId, { name: "MATCH two", createdAt: tie });
    await insertLead(companyId, { name: "Other", createdAt: minutesAgo(3) });
    await insertLead(companyId, { email: "match@example.com", emailNormalized: "match@example.com" });
    await insertLead(companyId, { name: "Match archived", archived: true, createdAt: minutesAgo(2) });
    await insertLead(companyId, { name: "Match older", createdAt: minutesAgo(20) });
    // The search's pages hold the unfiltered list's order (created_at, then id, descending).
    const all = await list(key, "?archived=true&limit=100");
    const matching = all.body.data.filter((l) => /match/i.test(`${l.name} ${l.email}`));
    const expected = matching.filter((l) => !l.archived).map((l) => l.id);
    expect(expected).toHaveLength(4);
    const paged: unknown[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await list(key, `?search=match&limit=1&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 4, limit: 1, page, has_more: page < 4 });
      paged.push(...ids(res));
    }
    expect(paged).toEqual(expected);
    const twoPages = await list(key, "?search=match&limit=3&page=2&archived=true");
    expect(twoPages.body.pagination).toMatchObject({ total: 5, has_more: false });
    expect(ids(twoPages)).toEqual(matching.slice(3).map((l) => l.id));
  });

  it("never lists another company's leads", async () => {
    const { key, companyId } = await tenant();
    const other = await createCompany(database.db);
    const mine = await insertLead(companyId, { name: "Mine", tags: ["t"] });
    await insertLead(other.id, { name: "Mine too", tags: ["t"] });
    expect(ids(await list(key, "?search=mine&tags=t&archived=true"))).toEqual([mine]);
    expect((await list(key)).body.pagination.total).toBe(1);
  });

  it("needs leads:read; customers:read alone is not enough", async () => {
    for (const scopes of [["customers:read"], ["leads:write"]] as Scope[][]) {
      const { key } = await tenant(scopes);
      const res = await call<ErrorBody>(listLeadsRoute, apiRequest("/leads", { key }));
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe("INSUFFICIENT_SCOPE");
      expect(res.body.message).toContain("leads:read");
    }
    const { key } = await tenant(["leads:read"]);
    expect((await list(key)).status).toBe(200);
  });
});

describe(`GET /api/leads/{id} (${testEngine()})`, () => {
  it("returns one lead in the list shape", async () => {
    const { key, companyId } = await tenant();
    const id = await insertLead(companyId, {
      name: "Detail",
      priority: "medium",
      followUpDate: new Date("2026-06-01T12:00:00Z"),
      latitude: 1.5,
      longitude: 2.5,
    });
    const res = await getOne(key, id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("success");
    expect(leadSchema.strict().parse(res.body.data)).toMatchObject({
      id,
      name: "Detail",
      priority: "medium",
      follow_up_date: "2026-06-01T12:00:00.000Z",
      location: [1.5, 2.5],
      archived: false,
    });
  });

  it("answers a lead alike in the list, in both kinds of search and by id, every field set", async () => {
    const { key, companyId } = await tenant();
    const id = await insertLead(companyId, {
      name: "Every Field",
      email: "every@example.com",
      phone: "(555) 010-0099",
      propertyStreet1: "1 Main St",
      propertyStreet2: "Apt 2",
      propertyCity: "Austin",
      propertyState: "TX",
      propertyZip: "78701",
      propertyCountry: "US",
      priority: "high",
      projectedValue: 1234.5,
      valueScore: 0.25,
      serviceType: "Pest control",
      leadSource: "Website",
      stage: "Qualified",
      tags: ["spring", "vip"],
      notes: "Gate code 12",
      followUpDate: new Date("2026-06-01T12:00:00.123Z"),
      archived: true,
      archivedAt: new Date("2026-05-01T08:00:00.456Z"),
      latitude: 30.25,
      longitude: -97.75,
    });
    const one = await getOne(key, id);
    expect(one.status).toBe(200);
    const detail = (one.body as { data: Body }).data;
    expect(detail).toMatchObject({
      projected_value: 1234.5,
      value_score: 0.25,
      follow_up_date: "2026-06-01T12:00:00.123Z",
      archived_at: "2026-05-01T08:00:00.456Z",
      property_street2: "Apt 2",
      tags: ["spring", "vip"],
      location: [30.25, -97.75],
    });
    // The page (kept total), a search of grams (page and total in one statement) and a search
    // under a gram (counted beside the page) each read the row their own way.
    for (const query of ["?archived=true", "?archived=true&search=every", "?archived=true&search=ev"]) {
      const listed = await list(key, query);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([detail]);
      expect(Object.keys(listed.body.data[0]!)).toEqual(Object.keys(detail));
    }
  });

  it("answers 404 for an unknown id and for another company's id", async () => {
    const { key } = await tenant();
    const other = await createCompany(database.db);
    const theirs = await insertLead(other.id, { name: "Theirs" });
    for (const id of ["lead_unknown", theirs]) {
      const res = await getOne(key, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: "error", message: "Lead not found" });
    }
  });

  it("needs leads:read and answers 405 for other verbs", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id, { scopes: ["customers:read"] });
    const res = await getOne(key, "lead_x");
    expect(res.status).toBe(403);
    expect(res.body.message).toContain("leads:read");
    const post = await call(postLeadById, apiRequest("/leads/x", { key, body: {} }), { id: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    const put = await call(putLeads, apiRequest("/leads", { key, method: "PUT", body: {} }));
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, HEAD, POST, OPTIONS");
  });

  it("leaves the other company's lead untouched by a matching upsert", async () => {
    const { key } = await tenant();
    const other = await createCompany(database.db);
    const theirs = await insertLead(other.id, {
      name: "Theirs",
      phone: "555-010-0009",
      phoneNormalized: "5550100009",
    });
    const res = await upsert(key, { phone: "555-010-0009", name: "Mine" });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(theirs);
    const [row] = await database.db
      .select({ name: leads.name })
      .from(leads)
      .where(and(eq(leads.companyId, other.id), eq(leads.id, theirs)));
    expect(row?.name).toBe("Theirs");
  });
});

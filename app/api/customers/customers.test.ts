import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getCustomerRoute, POST as postCustomerById } from "@/app/api/customers/[id]/route";
import { GET as listCustomersRoute, POST as upsertCustomerRoute } from "@/app/api/customers/route";
import type { Scope } from "@/lib/values/scopes";
import { customers } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { customerDetailSchema, customerSchema, customerUpsertResponseSchema } from "@/lib/schemas/customers";
import { apiRequest, call, createCompany, createTenant } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Body = Record<string, unknown>;
type ListBody = { status: string; data: Body[]; pagination: Body };
type ErrorBody = { status: string; message: string; error_code?: string; details?: { field: string }[] };

const tenant = (scopes?: readonly Scope[]) => createTenant(database.db, { scopes });
const upsert = (key: string, body: unknown) =>
  call(upsertCustomerRoute, apiRequest("/customers", { key, body }));
const list = (key: string, query = "") =>
  call<ListBody>(listCustomersRoute, apiRequest(`/customers${query}`, { key }));
const getOne = (key: string, id: string) =>
  call(getCustomerRoute, apiRequest(`/customers/${encodeURIComponent(id)}`, { key }), { id });
const ids = (res: { body: ListBody }) => res.body.data.map((c) => c.id as string);
const fields = (res: { body: unknown }) => ((res.body as ErrorBody).details ?? []).map((d) => d.field).sort();

/** A stored customer with a chosen creation time (the API always stamps "now"). */
async function insertCustomer(companyId: string, values: Partial<typeof customers.$inferInsert> = {}) {
  const id = values.id ?? newId(ID_PREFIX.customer);
  await database.db.insert(customers).values({ firstName: "Stored", ...values, companyId, id });
  return id;
}
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

async function customerCount(companyId: string) {
  const [row] = await database.db
    .select({ n: count() })
    .from(customers)
    .where(eq(customers.companyId, companyId));
  return row?.n ?? 0;
}

describe(`POST /api/customers (${testEngine()})`, () => {
  it("creates a customer: 201, flat response, status active by default, null fields left out", async () => {
    const { key } = await tenant();
    const res = await upsert(key, {
      first_name: "Ada",
      last_name: "Lovelace",
      company_name: "Engines Ltd",
      email: "Ada@Example.com",
      phone: "(555) 020-0001",
      notes: "Gate code 1234",
      source: "Referral",
      property_street1: "1 Analytical Way",
      property_city: "London",
      property_state: "LDN",
      property_zip: "N1",
      property_country: "UK",
      billing_street1: "PO Box 9",
      billing_city: "Leeds",
      service_frequency: "Monthly",
      service_type: "Pest control",
      tags: ["vip", "vip", "north"],
      whatever: 1,
    });
    expect(res.status).toBe(201);
    const customer = customerUpsertResponseSchema.strict().parse(res.body);
    expect(customer).toEqual({
      id: expect.stringMatching(/^cus_/),
      first_name: "Ada",
      last_name: "Lovelace",
      company_name: "Engines Ltd",
      email: "Ada@Example.com",
      phone: "(555) 020-0001",
      notes: "Gate code 1234",
      source: "Referral",
      property_street1: "1 Analytical Way",
      property_city: "London",
      property_state: "LDN",
      property_zip: "N1",
      property_country: "UK",
      billing_street1: "PO Box 9",
      billing_city: "Leeds",
      billing_same_as_property: false,
      service_frequency: "Monthly",
      service_type: "Pest control",
      status: "active",
      tags: ["vip", "north"],
      created_at: expect.any(String),
      message: "Customer created",
      matched_on: null,
    });
    expect(Date.parse(customer.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("copies the property address to billing when billing_same_as_property is true", async () => {
    const { key } = await tenant();
    const created = await upsert(key, {
      company_name: "Same Address Inc",
      property_street1: "5 Elm St",
      property_street2: "Unit 3",
      property_city: "Springfield",
      property_state: "IL",
      property_zip: "62701",
      billing_street1: "ignored",
      billing_same_as_property: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      billing_same_as_property: true,
      billing_street1: "5 Elm St",
      billing_street2: "Unit 3",
      billing_city: "Springfield",
      billing_state: "IL",
      billing_zip: "62701",
    });
    expect(created.body).not.toHaveProperty("billing_country");
    // The flag stays: a later property change moves the billing address along.
    const moved = await upsert(key, {
      id: created.body.id,
      property_street1: "9 Oak Ave",
      property_street2: null,
    });
    expect(moved.body).toMatchObject({ property_street1: "9 Oak Ave", billing_street1: "9 Oak Ave" });
    expect(moved.body).not.toHaveProperty("billing_street2");
    const separate = await upsert(key, {
      id: created.body.id,
      billing_same_as_property: false,
      billing_street1: "PO Box 1",
    });
    expect(separate.body).toMatchObject({ billing_same_as_property: false, billing_street1: "PO Box 1" });
  });

  it("updates: 200, status is the customer's, absent kept, null clears, tags merged", async () => {
    const { key } = await tenant();
    const created = await upsert(key, {
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: "555-020-0002",
      notes: "n",
      tags: ["a", "b"],
    });
    const id = created.body.id as string;
    const res = await upsert(key, { id, status: "inactive", notes: null, last_name: "", tags: ["c", "b"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      message: "Customer updated",
      status: "inactive",
      first_name: "Grace",
      email: "grace@example.com",
      phone: "555-020-0002",
      tags: ["a", "b", "c"],
    });
    expect(res.body).not.toHaveProperty("notes");
    expect(res.body).not.toHaveProperty("last_name");
    const stored = await getOne(key, id);
    expect(stored.body.data).toMatchObject({ status: "inactive", tags: ["a", "b", "c"] });
  });

  it("answers 404 'Customer not found' for an unknown or foreign id, and writes nothing", async () => {
    const { key, companyId } = await tenant();
    const other = await createCompany(database.db);
    const theirs = await insertCustomer(other.id, { firstName: "Theirs" });
    for (const id of ["cus_unknown", theirs]) {
      const res = await upsert(key, { id, first_name: "Hijack" });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: "error", message: "Customer not found" });
    }
    expect(await customerCount(companyId)).toBe(0);
  });

  it("matches by phone digits, then email in another case; newest first; archived stay archived", async () => {
    const { key, companyId } = await tenant();
    const byEmail = await insertCustomer(companyId, {
      email: "Pat@Example.com",
      emailNormalized: "pat@example.com",
      createdAt: minutesAgo(1),
    });
    await insertCustomer(companyId, {
      phone: "555 020 0003",
      phoneNormalized: "5550200003",
      createdAt: minutesAgo(9),
    });
    const newer = await insertCustomer(companyId, {
      phone: "(555) 020-0003",
      phoneNormalized: "5550200003",
      archived: true,
      createdAt: minutesAgo(5),
    });
    const res = await upsert(key, { phone: "+1-555-020-0003", email: "pat@example.com", source: "Phone" });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(newer);
    const [row] = await database.db.select().from(customers).where(eq(customers.id, newer));
    expect(row?.archived).toBe(true);
    const emailMatch = await upsert(key, { email: "PAT@EXAMPLE.COM", phone: "555-777-0000" });
    expect(emailMatch.status).toBe(200);
    expect(emailMatch.body.id).toBe(byEmail);
  });

  it("refuses a new customer without a name, email or phone, and names every bad field", async () => {
    const { key, companyId } = await tenant();
    const empty = await upsert(key, { notes: "who?", status: "inactive" });
    expect(empty.status).toBe(400);
    expect(empty.body.error_code).toBe("VALIDATION_ERROR");
    expect(fields(empty)).toEqual(["company_name", "email", "first_name", "last_name", "phone"]);
    const bad = await upsert(key, {
      first_name: "x".repeat(256),
      email: "nope",
      status: "Active",
      billing_same_as_property: "yes",
      tags: "vip",
      notes: "x".repeat(10_001),
      property_zip: 12345,
    });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(
      ["first_name", "email", "status", "billing_same_as_property", "tags", "notes", "property_zip"].sort(),
    );
    expect(await customerCount(companyId)).toBe(0);
  });

  it("creates one customer for 20 parallel upserts of one new phone, and of one new email", async () => {
    const { key, companyId } = await tenant();
    const phones = ["555-020-0004", "(555) 020 0004", "+15550200004"];
    const byPhone = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upsert(key, { phone: phones[i % 3], tags: [`p${i}`] })),
    );
    expect(byPhone.filter((r) => r.status === 201)).toHaveLength(1);
    expect(byPhone.filter((r) => r.status === 200)).toHaveLength(19);
    const byEmail = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upsert(key, { email: i % 2 ? "ONE@example.com" : "one@EXAMPLE.com", first_name: `F${i}` }),
      ),
    );
    expect(byEmail.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(byEmail.map((r) => r.body.id)).size).toBe(1);
    expect(await customerCount(companyId)).toBe(2);
  });

  it("needs customers:write (leads:write is not enough)", async () => {
    for (const scopes of [["leads:write"], ["customers:read"]] as Scope[][]) {
      const { key } = await tenant(scopes);
      const res = await upsert(key, { first_name: "X" });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error_code: "INSUFFICIENT_SCOPE" });
      expect(res.body.message).toContain("customers:write");
    }
  });

  it("runs the pipeline's checks before the body", async () => {
    const { key } = await tenant();
    const cases: [Parameters<typeof apiRequest>[1], number, string][] = [
      [{ body: { first_name: "x" } }, 401, "AUTHENTICATION_REQUIRED"],
      [{ key: "fcrm_wrong", body: {} }, 401, "INVALID_API_KEY"],
      [{ key, version: "2.0.0", body: {} }, 400, "UNSUPPORTED_API_VERSION"],
      [{ key, rawBody: "nope" }, 400, "INVALID_JSON"],
      [{ key, rawBody: "42" }, 400, "INVALID_JSON"],
      [{ key, body: {}, contentType: "application/x-www-form-urlencoded" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [{ key, rawBody: JSON.stringify({ notes: "x".repeat(1024 * 1024) }) }, 413, "PAYLOAD_TOO_LARGE"],
    ];
    for (const [options, status, code] of cases) {
      const res = await call(upsertCustomerRoute, apiRequest("/customers", options));
      expect(res.status, code).toBe(status);
      expect(res.body, code).toMatchObject({ status: "error", error_code: code });
    }
  });
});

describe(`GET /api/customers (${testEngine()})`, () => {
  it("lists newest first with id tie-break, in the record shape with address and is_auto_pay", async () => {
    const { key, companyId } = await tenant();
    const same = minutesAgo(20);
    const oldest = await insertCustomer(companyId, { createdAt: minutesAgo(40) });
    const tieA = await insertCustomer(companyId, { id: "cus_tie_a", createdAt: same });
    const tieB = await insertCustomer(companyId, { id: "cus_tie_b", createdAt: same });
    const full = await insertCustomer(companyId, {
      firstName: "Ada",
      lastName: "Lovelace",
      companyName: "Engines",
      email: "ada@example.com",
      phone: "555",
      notes: "n",
      source: "web",
      propertyStreet1: "1 Way",
      propertyStreet2: "Apt 2",
      propertyCity: "London",
      propertyState: "LDN",
      propertyZip: "N1",
      propertyCountry: "UK",
      tags: ["t"],
      isAutoPay: true,
      hasPaymentMethod: true,
      latitude: 51.5,
      longitude: -0.1,
      createdAt: minutesAgo(1),
    });
    const res = await list(key);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([full, tieB, tieA, oldest]);
    expect(res.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 4 });
    expect(customerSchema.strict().parse(res.body.data[0])).toEqual({
      id: full,
      first_name: "Ada",
      last_name: "Lovelace",
      company_name: "Engines",
      email: "ada@example.com",
      phone: "555",
      notes: "n",
      source: "web",
      address: { street1: "1 Way", street2: "Apt 2", city: "London", state: "LDN", zip: "N1", country: "UK" },
      status: "active",
      tags: ["t"],
      created_at: expect.any(String),
      location: [51.5, -0.1],
      is_auto_pay: true,
    });
    // Key for key in the documented order, with or without the fields left out.
    const record = res.body.data[0] as { address: object };
    expect(Object.keys(record)).toEqual(Object.keys(customerSchema.shape));
    expect(Object.keys(record.address)).toEqual(["street1", "street2", "city", "state", "zip", "country"]);
    expect(Object.keys(res.body.data[3]!)).toEqual([
      "id",
      "first_name",
      "address",
      "status",
      "tags",
      "created_at",
      "is_auto_pay",
    ]);
    // Unknown strings are left out; address members are "" and street2 is left out.
    expect(customerSchema.strict().parse(res.body.data[3])).toEqual({
      id: oldest,
      first_name: "Stored",
      address: { street1: "", city: "", state: "", zip: "", country: "" },
      status: "active",
      tags: [],
      created_at: expect.any(String),
      is_auto_pay: false,
    });
  });

  it("pages: limit 1, limit 1000, a page past the end; invalid values are 400 naming the parameter", async () => {
    const { key, companyId } = await tenant();
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.unshift(await insertCustomer(companyId, { createdAt: minutesAgo(30 - i) }));
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list(key, `?limit=1&page=${page}`);
      expect(res.body.pagination).toEqual({ has_more: page < 3, limit: 1, page, total: 3 });
      seen.push(...ids(res));
    }
    expect(seen).toEqual(made);
    expect((await list(key, "?limit=1000")).body.pagination).toMatchObject({ limit: 1000, total: 3 });
    const past = await list(key, "?page=2");
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toEqual({ has_more: false, limit: 50, page: 2, total: 3 });
    for (const [query, field] of [
      ["?page=0", "page"],
      ["?limit=1001", "limit"],
      ["?limit=x", "limit"],
      ["?archived=1", "archived"],
      ["?status=ACTIVE", "status"],
      ["?status=archived", "status"],
    ]) {
      const res = await call<ErrorBody>(listCustomersRoute, apiRequest(`/customers${query}`, { key }));
      expect(res.status, query).toBe(400);
      expect(res.body.error_code, query).toBe("VALIDATION_ERROR");
      expect(fields(res), query).toEqual([field]);
    }
  });

  it("filters archived, status and tags, and ignores unknown parameters", async () => {
    const { key, companyId } = await tenant();
    const active = await insertCustomer(companyId, { tags: ["pool", "VIP"], createdAt: minutesAgo(4) });
    const inactive = await insertCustomer(companyId, {
      status: "inactive",
      tags: ["lawn"],
      createdAt: minutesAgo(3),
    });
    const archived = await insertCustomer(companyId, {
      archived: true,
      tags: ["pool"],
      createdAt: minutesAgo(2),
    });
    expect(ids(await list(key))).toEqual([inactive, active]);
    expect(ids(await list(key, "?archived=True"))).toEqual([archived, inactive, active]);
    expect(ids(await list(key, "?status=active"))).toEqual([active]);
    expect(ids(await list(key, "?status=active&archived=true"))).toEqual([archived, active]);
    expect(ids(await list(key, "?status=inactive"))).toEqual([inactive]);
    expect(ids(await list(key, "?tags=pool"))).toEqual([active]);
    expect(ids(await list(key, "?tags=vip"))).toEqual([]);
    expect(ids(await list(key, `?tags=${encodeURIComponent("lawn, VIP,")}`))).toEqual([inactive, active]);
    expect(ids(await list(key, "?foo=bar"))).toEqual([inactive, active]);
  });

  it("searches first, last, 'first last', company, email and phone; digits alone; wildcards literally", async () => {
    const { key, companyId } = await tenant();
    const ada = await insertCustomer(companyId, {
      firstName: "Ada",
      lastName: "Lovelace",
      createdAt: minutesAgo(6),
    });
    const firm = await insertCustomer(companyId, {
      firstName: null,
      companyName: "Acme_Pest Co",
      createdAt: minutesAgo(5),
    });
    const mail = await insertCustomer(companyId, {
      firstName: "Bo",
      email: "Bo.Jackson@Example.com",
      emailNormalized: "bo.jackson@example.com",
      createdAt: minutesAgo(4),
    });
    const tel = await insertCustomer(companyId, {
      firstName: "Cy",
      phone: "(555) 321-9876",
      phoneNormalized: "5553219876",
      createdAt: minutesAgo(3),
    });
    const search = async (term: string) => ids(await list(key, `?search=${encodeURIComponent(term)}`));
    expect(await search("ada")).toEqual([ada]);
    expect(await search("LOVE")).toEqual([ada]);
    expect(await search("ada lovelace")).toEqual([ada]);
    expect(await search("a lov")).toEqual([ada]);
    expect(await search("acme_pest")).toEqual([firm]);
    expect(await search("acme%")).toEqual([]);
    expect(await search("e_p")).toEqual([firm]);
    expect(await search("o_j")).toEqual([]);
    expect(await search("JACKSON@example")).toEqual([mail]);
    expect(await search("321-98")).toEqual([tel]);
    expect(await search("3219876")).toEqual([tel]);
    expect(await search("1 (555) 321 9876")).toEqual([tel]);
  });

  it("matches a term within one field, never across two, whatever characters the term holds", async () => {
    const { key, companyId } = await tenant();
    const ada = await insertCustomer(companyId, {
      firstName: "Ada",
      lastName: "King",
      companyName: "Bolt Pest",
      email: "ada@bolt.example",
      emailNormalized: "ada@bolt.example",
      createdAt: minutesAgo(2),
    });
    // U+0001 separates the fields of the search document (lib/db/schema/columns.ts).
    const odd = await insertCustomer(companyId, {
      firstName: null,
      companyName: "Tab\u0001Co",
      createdAt: minutesAgo(1),
    });
    const search = async (term: string) => ids(await list(key, `?search=${encodeURIComponent(term)}`));
    expect(await search("ada king")).toEqual([ada]);
    expect(await search("kingbolt")).toEqual([]);
    expect(await search("king\u0001bolt")).toEqual([]);
    expect(await search("pestada")).toEqual([]);
    expect(await search("\u0001")).toEqual([odd]);
    expect(await search("b\u0001c")).toEqual([odd]);
  });

  it("never lists another company's customers", async () => {
    const { key, companyId } = await tenant();
    const other = await createCompany(database.db);
    const mine = await insertCustomer(companyId, { firstName: "Shared" });
    await insertCustomer(other.id, { firstName: "Shared" });
    expect(ids(await list(key, "?search=shared&archived=true"))).toEqual([mine]);
  });

  it("accepts customers:read or the legacy leads:read, and names leads:read when both are missing", async () => {
    for (const scopes of [["customers:read"], ["leads:read"]] as Scope[][]) {
      const { key, companyId } = await tenant(scopes);
      const id = await insertCustomer(companyId);
      expect((await list(key)).status, scopes[0]).toBe(200);
      expect((await getOne(key, id)).status, scopes[0]).toBe(200);
    }
    const { key } = await tenant(["customers:write", "pins:read"]);
    for (const res of [await list(key), await getOne(key, "cus_x")]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error_code: "INSUFFICIENT_SCOPE" });
      expect((res.body as ErrorBody).message).toContain("leads:read");
    }
  });
});

describe(`GET /api/customers/{id} (${testEngine()})`, () => {
  it("returns the customer with has_payment_method and is_auto_pay", async () => {
    const { key, companyId } = await tenant();
    const id = await insertCustomer(companyId, {
      firstName: "Pay",
      propertyCity: "Austin",
      hasPaymentMethod: true,
      status: "inactive",
      archived: true,
      billingStreet1: "PO Box 12",
      billingCity: "Round Rock",
      serviceType: "Termite",
    });
    const res = await getOne(key, id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("success");
    expect(customerDetailSchema.strict().parse(res.body.data)).toEqual({
      id,
      first_name: "Pay",
      address: { street1: "", city: "Austin", state: "", zip: "", country: "" },
      status: "inactive",
      tags: [],
      created_at: expect.any(String),
      is_auto_pay: false,
      has_payment_method: true,
      billing_street1: "PO Box 12",
      billing_city: "Round Rock",
      billing_same_as_property: false,
      service_type: "Termite",
      archived: true,
    });
  });

  it("answers a customer alike in the list, in both kinds of search and by id, every field set", async () => {
    const { key, companyId } = await tenant();
    const id = await insertCustomer(companyId, {
      firstName: "Every",
      lastName: "Field",
      companyName: "Field & Co",
      email: "every@example.com",
      phone: "(555) 010-0098",
      notes: "Gate code 12",
      source: "Referral",
      propertyStreet1: "1 Main St",
      propertyStreet2: "Apt 2",
      propertyCity: "Austin",
      propertyState: "TX",
      propertyZip: "78701",
      propertyCountry: "US",
      status: "inactive",
      tags: ["spring", "vip"],
      archived: true,
      isAutoPay: true,
      createdAt: new Date("2026-05-01T08:00:00.456Z"),
      latitude: 30.25,
      longitude: -97.75,
    });
    const one = await getOne(key, id);
    expect(one.status).toBe(200);
    const detail = (one.body as { data: Body }).data;
    expect(detail).toMatchObject({
      last_name: "Field",
      address: {
        street1: "1 Main St",
        street2: "Apt 2",
        city: "Austin",
        state: "TX",
        zip: "78701",
        country: "US",
      },
      created_at: "2026-05-01T08:00:00.456Z",
      location: [30.25, -97.75],
      is_auto_pay: true,
    });
    // The list answers the detail's fields but those of billing, service and payment method, in
    // the same order; the page, a search of grams and one under a gram each read the row their way.
    const listedFields = Object.keys(customerSchema.shape);
    const expected = Object.fromEntries(
      Object.entries(detail).filter(([name]) => listedFields.includes(name)),
    );
    for (const query of ["?archived=true", "?archived=true&search=every", "?archived=true&search=ev"]) {
      const listed = await list(key, query);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([expected]);
      expect(Object.keys(listed.body.data[0]!)).toEqual(Object.keys(expected));
    }
  });

  it("answers 404 for an unknown id and another company's id; 405 for other verbs", async () => {
    const { key } = await tenant();
    const other = await createCompany(database.db);
    const theirs = await insertCustomer(other.id);
    for (const id of ["cus_unknown", theirs]) {
      const res = await getOne(key, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: "error", message: "Customer not found" });
    }
    const post = await call(postCustomerById, apiRequest("/customers/x", { key, body: {} }), { id: "x" });
    expect(post.status).toBe(405);
  });
});

import { describe, expect, it } from "vitest";
import { GET as getCustomerRoute } from "@/app/api/customers/[id]/route";
import { POST as upsertCustomerRoute } from "@/app/api/customers/route";
import { GET as leadActivityRoute } from "@/app/api/leads/[id]/activity/route";
import { POST as convertRoute } from "@/app/api/leads/[id]/convert/route";
import { GET as customerActivityRoute } from "@/app/api/customers/[id]/activity/route";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
import { getOpenApiDocument } from "@/app/api/routes";
import { convertLeadDryRunResponseSchema, convertLeadResponseSchema } from "@/lib/schemas/lead-convert";
import type { ActivityEntry } from "@/lib/schemas/activity";
import { apiRequest, call, createApiKey, createTenant } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Body = Record<string, unknown>;

const upsertLead = (key: string, body: unknown) =>
  call<Body>(upsertLeadRoute, apiRequest("/leads", { key, body }));
const upsertCustomer = (key: string, body: unknown) =>
  call<Body>(upsertCustomerRoute, apiRequest("/customers", { key, body }));
const convert = (key: string, id: string, body?: unknown, query = "") =>
  call<Body>(convertRoute, apiRequest(`/leads/${id}/convert${query}`, { key, method: "POST", body }), { id });
const story = async (key: string, kind: "leads" | "customers", id: string) =>
  (
    await call<{ data: ActivityEntry[] }>(
      kind === "leads" ? leadActivityRoute : customerActivityRoute,
      apiRequest(`/${kind}/${id}/activity`, { key }),
      { id },
    )
  ).body.data;
const customerCount = async (key: string, id: string) =>
  (await call(getCustomerRoute, apiRequest(`/customers/${id}`, { key }), { id })).status;

const lead = {
  name: "Dana Q. Door",
  email: "dana@example.com",
  phone: "(555) 010-7788",
  address_street1: "12 Elm St",
  address_city: "Austin",
  address_zip: "78701",
  tags: ["spring"],
  notes: "Dog in the yard",
  source: "door",
  stage: "quoted",
};

describe(`POST /leads/{id}/convert (${testEngine()})`, () => {
  it("makes a customer from the lead, links both ways, moves the lead to won; a second call changes nothing", async () => {
    const { key } = await createTenant(database.db);
    const id = (await upsertLead(key, lead)).body.id as string;
    const made = await convert(key, id);
    expect(made.status).toBe(201);
    const answer = convertLeadResponseSchema.parse(made.body);
    expect(answer).toMatchObject({ matched_on: null, lead: { id, stage: "won" } });
    expect(answer.data).toMatchObject({
      first_name: "Dana Q.",
      last_name: "Door",
      email: "dana@example.com",
      phone: "(555) 010-7788",
      address: { street1: "12 Elm St", city: "Austin", zip: "78701" },
      tags: ["spring"],
      notes: "Dog in the yard",
      source: "door",
      lead_id: id,
      archived: false,
    });
    const customerId = answer.data.id;
    expect(answer.lead.customer_id).toBe(customerId);

    const again = await convert(key, id, {});
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      matched_on: "id",
      data: { id: customerId },
      lead: { customer_id: customerId },
    });

    const leadStory = await story(key, "leads", id);
    expect(leadStory[0]).toMatchObject({
      type: "converted",
      related_id: customerId,
      changes: [
        { field: "stage", from: "quoted", to: "won" },
        { field: "customer_id", from: null, to: customerId },
      ],
    });
    expect(leadStory.filter((e) => e.type === "converted")).toHaveLength(1);
    const customerStory = await story(key, "customers", customerId);
    expect(customerStory.map((e) => [e.type, e.related_id])).toEqual([
      ["converted", id],
      ["created", null],
    ]);
  });

  it("links a customer matched by phone as it is, after a dry run that writes nothing", async () => {
    const { key } = await createTenant(database.db);
    const existing = (await upsertCustomer(key, { first_name: "Known", phone: "555 010 7788" })).body
      .id as string;
    const id = (await upsertLead(key, lead)).body.id as string;

    const preview = await convert(key, id, undefined, "?dry_run=true");
    expect(preview.status).toBe(200);
    expect(convertLeadDryRunResponseSchema.parse(preview.body)).toMatchObject({
      matched_on: "phone",
      existing: { id: existing, first_name: "Known" },
      result: { id: existing, lead_id: id },
    });
    expect((await story(key, "leads", id)).map((e) => e.type)).toEqual(["created"]);

    const linked = await convert(key, id);
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      matched_on: "phone",
      data: { id: existing, first_name: "Known", lead_id: id },
    });

    expect((await story(key, "customers", existing)).map((e) => [e.type, e.related_id])).toEqual([
      ["converted", id],
      ["created", null],
    ]);
  });

  it("refuses without customers:write, an unknown lead and a bad body; match none and the body shape a new one", async () => {
    const { companyId, key } = await createTenant(database.db);
    const id = (await upsertLead(key, { ...lead, phone: "555 020 0000", email: "x@example.com" })).body
      .id as string;
    const { key: leadsOnly } = await createApiKey(database.db, companyId, {
      scopes: ["leads:write", "leads:read"],
    });
    const refused = await convert(leadsOnly, id);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: "INSUFFICIENT_SCOPE" });
    expect(String(refused.body.message)).toContain("customers:write");
    expect((await convert(key, "lead_nope")).status).toBe(404);
    const bad = await convert(key, id, { email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect((await story(key, "leads", id)).map((e) => e.type)).toEqual(["created"]);

    const fresh = await convert(key, id, { match: "none", first_name: "Given", last_name: "Name" });
    expect(fresh.status).toBe(201);
    expect(fresh.body).toMatchObject({ matched_on: null, data: { first_name: "Given", last_name: "Name" } });
    expect(await customerCount(key, (fresh.body.data as Body).id as string)).toBe(200);
  });

  it("a dry run needs leads:read as well: a write-only key gets 403 naming it, no customer shown", async () => {
    const { companyId, key } = await createTenant(database.db);
    await upsertCustomer(key, { first_name: "Known", phone: "555 010 7788", notes: "Alarm code 9911" });
    const id = (await upsertLead(key, lead)).body.id as string;
    for (const scopes of [
      ["leads:write", "customers:write"],
      ["leads:write", "customers:write", "customers:read"],
    ] as const) {
      const { key: writer } = await createApiKey(database.db, companyId, { scopes });
      const preview = await convert(writer, id, undefined, "?dry_run=true");
      expect([preview.status, preview.body], String(scopes)).toEqual([
        403,
        {
          status: "error",
          error_code: "INSUFFICIENT_SCOPE",
          message: "Insufficient scope: a dry run also requires the leads:read scope",
        },
      ]);
    }
    const { key: both } = await createApiKey(database.db, companyId, {
      scopes: ["leads:write", "customers:write", "leads:read"],
    });
    const preview = await convert(both, id, undefined, "?dry_run=true");
    expect(preview.body).toMatchObject({
      dry_run: true,
      matched_on: "phone",
      existing: { notes: "Alarm code 9911" },
    });
    expect((await story(key, "leads", id)).map((e) => e.type)).toEqual(["created"]);
  });

  it("a dry run that would make a customer answers dry_run: true and no made-up id", async () => {
    const { key } = await createTenant(database.db);
    const id = (await upsertLead(key, lead)).body.id as string;
    const preview = await convert(key, id, undefined, "?dry_run=true");
    expect(preview.status).toBe(200);
    const answer = convertLeadDryRunResponseSchema.strict().parse(preview.body);
    expect(answer).toMatchObject({ dry_run: true, matched_on: null, existing: null });
    expect(answer.result).toMatchObject({ first_name: "Dana Q.", last_name: "Door", lead_id: id });
    expect(answer.result).not.toHaveProperty("id");

    const made = await convert(key, id);
    expect(made.status).toBe(201);
    expect(made.body).not.toHaveProperty("dry_run");
    const { id: customerId, ...madeCustomer } = made.body.data as Body;
    expect(typeof customerId).toBe("string");
    // The same customer but for what storing it stamps.
    const stamped = new Set(["created_at", "updated_at"]);
    const unstamped = (record: Body) => Object.entries(record).filter(([field]) => !stamped.has(field));
    expect(unstamped(answer.result)).toEqual(unstamped(madeCustomer));
  });

  it("the document declares the dry run's answer as its own schema, told apart by dry_run", () => {
    const document = getOpenApiDocument() as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    };
    const operation = document.paths["/leads/{id}/convert"]!.post!;
    expect(operation["x-dry-run-scopes"]).toEqual(["leads:read", "customers:read"]);
    expect(document.components.schemas.ConvertLeadLinkedOrDryRunResponse).toMatchObject({
      oneOf: [
        { $ref: "#/components/schemas/ConvertLeadResponse" },
        { $ref: "#/components/schemas/ConvertLeadDryRunResponse" },
      ],
    });
    const dryRun = document.components.schemas.ConvertLeadDryRunResponse!;
    expect(dryRun.properties.dry_run).toMatchObject({ const: true });
    expect(dryRun.required).toContain("dry_run");
    expect((dryRun.properties.result as { required: string[] }).required).not.toContain("id");
  });
});

import { describe, expect, it } from "vitest";
import { GET as getCustomerRoute } from "@/app/api/customers/[id]/route";
import { POST as upsertCustomerRoute } from "@/app/api/customers/route";
import { GET as leadActivityRoute } from "@/app/api/leads/[id]/activity/route";
import { POST as convertRoute } from "@/app/api/leads/[id]/convert/route";
import { GET as customerActivityRoute } from "@/app/api/customers/[id]/activity/route";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
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
});

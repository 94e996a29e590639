import { describe, expect, it } from "vitest";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
import { GET as leadActivityRoute } from "@/app/api/leads/[id]/activity/route";
import { type ActivityEntry, listActivityResponseSchema } from "@/lib/schemas/activity";
import { apiRequest, call, createApiKey, createCompany, createUser } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

// An owner change is a change (issue #52): a matched create-or-update that names another owner
// records assigned_to with its old and new value; one that leaves assigned_to out keeps the owner.

const database = setupTestDatabase();

type Body = Record<string, unknown>;

async function tenant() {
  const company = await createCompany(database.db);
  const { key } = await createApiKey(database.db, company.id);
  const priya = await createUser(database.db, company.id, { role: "sales_rep", name: "Priya Patel" });
  const jake = await createUser(database.db, company.id, { role: "sales_rep", name: "Jake Turner" });
  const upsert = (body: unknown, query = "") =>
    call<Body>(upsertLeadRoute, apiRequest(`/leads${query}`, { key, body }));
  const activity = async (id: string) => {
    const res = await call<Body>(leadActivityRoute, apiRequest(`/leads/${id}/activity`, { key }), { id });
    expect(res.status).toBe(200);
    return listActivityResponseSchema.parse(res.body).data as ActivityEntry[];
  };
  return { upsert, activity, priya, jake };
}

describe(`an owner change through a matched create (${testEngine()})`, () => {
  it("records assigned_to from the old owner to the new one", async () => {
    const t = await tenant();
    const made = await t.upsert({ name: "Robin", phone: "(512) 555-0101", assigned_to: t.priya.id });
    expect(made.status).toBe(201);
    const id = made.body.id as string;

    // The dry run shows the owner the update would set, beside the lead as it is.
    const dry = await t.upsert(
      { name: "Robin", phone: "512.555.0101", assigned_to: t.jake.id },
      "?dry_run=true",
    );
    expect(dry.body).toMatchObject({
      matched_on: "phone",
      existing: { id, assigned_to: t.priya.id },
      result: { id, assigned_to: t.jake.id },
    });

    const updated = await t.upsert({ name: "Robin", phone: "512.555.0101", assigned_to: t.jake.id });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, matched_on: "phone", assigned_to: t.jake.id });
    const [entry] = await t.activity(id);
    expect(entry).toMatchObject({ type: "updated" });
    expect(entry!.changes).toContainEqual({ field: "assigned_to", from: t.priya.id, to: t.jake.id });
  });

  it("keeps the owner when the body leaves assigned_to out, as the form does unticked", async () => {
    const t = await tenant();
    const made = await t.upsert({ name: "Sky", email: "sky@example.test", assigned_to: t.priya.id });
    const id = made.body.id as string;
    const updated = await t.upsert({ name: "Sky Blue", email: "sky@example.test" });
    expect(updated.body).toMatchObject({ id, matched_on: "email", assigned_to: t.priya.id });
    const [entry] = await t.activity(id);
    expect(entry!.changes).toEqual([{ field: "name", from: "Sky", to: "Sky Blue" }]);
  });
});

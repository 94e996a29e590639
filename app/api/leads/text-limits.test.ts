import { describe, expect, it } from "vitest";
import { GET as getLeadRoute } from "@/app/api/leads/[id]/route";
import { POST as leadNotesRoute } from "@/app/api/leads/[id]/notes/route";
import { POST as bulkLeadsRoute } from "@/app/api/leads/bulk/route";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
import { POST as createApiKeyRoute } from "@/app/api/settings/api-keys/route";
import { POST as upsertTerritoryRoute } from "@/app/api/territories/route";
import { NOTE_MAX_LENGTH } from "@/lib/schemas/activity";
import { TERRITORY_NAME_MAX } from "@/lib/schemas/territories";
import { NOTES_MAX, SHORT_TEXT_MAX, TAG_MAX } from "@/lib/schemas/upsert-fields";
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

type Body = Record<string, unknown>;

/** One character that is two UTF-16 units, so a limit counted in units would refuse half the text. */
const EMOJI = "😀";
const emoji = (n: number) => EMOJI.repeat(n);

async function tenant() {
  const company = await createCompany(database.db);
  const { key } = await createApiKey(database.db, company.id);
  return { key };
}

describe(`text limits count characters, not UTF-16 units (${testEngine()})`, () => {
  it("stores a lead whose texts are at their limits in emoji, and reads them back whole", async () => {
    const { key } = await tenant();
    const body = {
      name: emoji(SHORT_TEXT_MAX),
      phone: emoji(SHORT_TEXT_MAX),
      notes: emoji(NOTES_MAX),
      tags: [emoji(TAG_MAX)],
    };
    const created = await call<Body>(upsertLeadRoute, apiRequest("/leads", { key, body }));
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    const id = created.body.id as string;
    const read = await call<{ data: Body }>(getLeadRoute, apiRequest(`/leads/${id}`, { key }), { id });
    expect(read.body.data).toMatchObject(body);
  });

  it("refuses one character over a limit, naming the field", async () => {
    const { key } = await tenant();
    for (const [field, value] of [
      ["name", emoji(SHORT_TEXT_MAX + 1)],
      ["notes", emoji(NOTES_MAX + 1)],
      ["tags", [emoji(TAG_MAX + 1)]],
    ] as const) {
      const refused = await call<Body>(
        upsertLeadRoute,
        apiRequest("/leads", { key, body: { name: "Limit", [field]: value } }),
      );
      expect(refused.status, field).toBe(400);
      expect(refused.body.message, field).toBe(`Invalid value for ${field === "tags" ? "tags.0" : field}`);
    }
  });

  it("adds a tag of the most characters in bulk and refuses one more", async () => {
    const { key } = await tenant();
    const lead = await call<Body>(upsertLeadRoute, apiRequest("/leads", { key, body: { name: "Bulk" } }));
    const id = lead.body.id as string;
    const addTag = (tag: string) =>
      call<Body>(
        bulkLeadsRoute,
        apiRequest("/leads/bulk", { key, body: { ids: [id], action: { type: "add_tags", tags: [tag] } } }),
      );
    const added = await addTag(emoji(TAG_MAX));
    expect(added.status, JSON.stringify(added.body).slice(0, 300)).toBe(200);
    const read = await call<{ data: Body }>(getLeadRoute, apiRequest(`/leads/${id}`, { key }), { id });
    expect(read.body.data.tags).toEqual([emoji(TAG_MAX)]);
    expect((await addTag(emoji(TAG_MAX + 1))).status).toBe(400);
  });

  it("takes a note of the most characters in emoji and refuses one more", async () => {
    const { key } = await tenant();
    const lead = await call<Body>(upsertLeadRoute, apiRequest("/leads", { key, body: { name: "Noted" } }));
    const id = lead.body.id as string;
    const note = (body: string) =>
      call<Body>(leadNotesRoute, apiRequest(`/leads/${id}/notes`, { key, body: { body } }), { id });
    expect((await note(emoji(NOTE_MAX_LENGTH))).status).toBe(201);
    const refused = await note(emoji(NOTE_MAX_LENGTH + 1));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      details: [{ field: "body", message: `must be at most ${NOTE_MAX_LENGTH} characters` }],
    });
  });

  it("counts a territory name in characters too", async () => {
    const company = await createCompany(database.db);
    const admin = await createUser(database.db, company.id, { role: "admin" });
    const cookie = await createSessionCookie(database.db, admin);
    const polygon = {
      type: "Polygon",
      coordinates: [
        [
          [-74, 40.7],
          [-73.9, 40.7],
          [-73.9, 40.8],
          [-74, 40.7],
        ],
      ],
    };
    const name = emoji(TERRITORY_NAME_MAX);
    const created = await call<Body>(
      upsertTerritoryRoute,
      apiRequest("/territories", { cookie, body: { name, polygon } }),
    );
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    expect(created.body.data).toMatchObject({ name });
  });

  it("counts an API key's name in characters, in the schema and in the domain alike", async () => {
    const company = await createCompany(database.db);
    const admin = await createUser(database.db, company.id, { role: "admin" });
    const cookie = await createSessionCookie(database.db, admin);
    const create = (name: string) =>
      call<Body>(
        createApiKeyRoute,
        apiRequest("/settings/api-keys", { cookie, body: { name, scopes: ["leads:read"] } }),
      );
    const created = await create(emoji(100));
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    expect(JSON.stringify(created.body)).toContain(emoji(100));
    expect((await create(emoji(101))).status).toBe(400);
  });
});

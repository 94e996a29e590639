import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { declaredAccess } from "@/lib/api/route-config";
import { snapshotHash, snapshotTables } from "@/lib/import/snapshot";
import {
  customers,
  importRows,
  imports,
  invites,
  leadBulkOperations,
  leads,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from "@/lib/db/schema";
import { loadPipeline } from "@/lib/domain/pipeline/pipeline";
import { createSession } from "@/lib/auth/sessions";
import { recordAudit } from "@/lib/domain/audit/audit";
import { createSessionCookie } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { discoverApiRoutes, invoke, type ApiRouteVerb, type InvokeResult } from "@/lib/security/api-routes";
import { seedCompanyWithEverything, type SeededCompany } from "@/lib/security/tenant-fixture";

/*
 * Tenant isolation (issue #7.1): B calls every route verb with A's ids and values; no answer shows anything
 * of A, A's rows stay unchanged. Routes come from app/api, so one missing from MATRIX fails the test.
 */

const database = setupTestDatabase();
let a: SeededCompany;
let b: SeededCompany;
let routes: ApiRouteVerb[];
/** A bulk change of A's leads (it changed none), for B to try to undo. */
const aBulkId = "blk_isolation_a";
/** A bulk change of A's customers (it changed none), for B to try to undo. */
const aCustomerBulkId = "blk_isolation_a_customers";
/** A session of A's admin, for B to try to end; set in beforeAll. */
let aSessionId = "";
const aInviteId = "inv_isolation_a";
const bInviteId = "inv_isolation_b";
/** The client_id of A's pin: B's create with the same one makes B's own pin. */
const aClientId = "client-isolation-a";

/** A pin's fields the import does not carry: notes, address, lead, client_id. */
async function fieldPins(): Promise<void> {
  for (const [company, clientId] of [
    [a, aClientId],
    [b, "client-isolation-b"],
  ] as const) {
    await database.db.execute(sql`update pins set notes = ${`Pin notes ${company.token}`},
        street1 = ${`3 ${company.token} Lane`}, lead_id = ${company.lead.id}, client_id = ${clientId}
      where company_id = ${company.companyId} and id = ${company.pinId}`);
  }
  a.secrets.push(`Pin notes ${a.token}`, `3 ${a.token} Lane`, aClientId);
}

/** An uploaded CSV import in each company: B must neither see nor run A's. */
const importIds = { a: "imp_isolation_a", b: "imp_isolation_b" };

const aWebhook = { endpointId: "whe_isolation_a", eventId: "evt_isolation_a", deliveryId: "whd_isolation_a" };

beforeAll(async () => {
  a = await seedCompanyWithEverything(database.db, "A");
  b = await seedCompanyWithEverything(database.db, "B");
  routes = await discoverApiRoutes();
  // A's webhook endpoint with one delivery: B's calls with their ids must find nothing.
  await database.db.insert(webhookEndpoints).values({
    companyId: a.companyId,
    id: aWebhook.endpointId,
    url: "https://example.com/hook",
    events: ["lead.created"],
    secret: "whsec_" + Buffer.from("isolation".repeat(4)).toString("base64"),
  });
  await database.db.insert(webhookEvents).values({
    companyId: a.companyId,
    id: aWebhook.eventId,
    type: "lead.created",
    recordType: "lead",
    recordId: "lead_a",
    payload: { type: "lead.created", timestamp: new Date().toISOString(), data: {} },
  });
  await database.db.insert(webhookDeliveries).values({
    companyId: a.companyId,
    id: aWebhook.deliveryId,
    eventId: aWebhook.eventId,
    endpointId: aWebhook.endpointId,
  });
  await database.db.insert(leadBulkOperations).values({
    companyId: a.companyId,
    id: aBulkId,
    action: { type: "archive" },
    changed: 0,
    actorKind: "user",
    actorId: a.admin.id,
  });
  await database.db.insert(leadBulkOperations).values({
    companyId: a.companyId,
    id: aCustomerBulkId,
    recordType: "customer",
    action: { type: "archive" },
    changed: 0,
    actorKind: "user",
    actorId: a.admin.id,
  });
  await fieldPins();
  for (const [company, id] of [
    [a, importIds.a],
    [b, importIds.b],
  ] as const) {
    await database.db.insert(imports).values({
      companyId: company.companyId,
      id,
      type: "leads",
      fileName: `${company.token}.csv`,
      status: "uploaded",
      encoding: "utf-8",
      delimiter: ",",
      headers: ["Name"],
      rowCount: 1,
      mapping: ["name"],
    });
    await database.db.insert(importRows).values({
      companyId: company.companyId,
      importId: id,
      row: 2,
      values: [`Import row ${company.token}`],
    });
  }
  a.ids.push(importIds.a);
  a.secrets.push(`Import row ${a.token}`);
  aSessionId = (
    await createSession(database.db, { companyId: a.companyId, id: a.admin.id }, "A's browser", "192.0.2.1")
  ).sessionId;
  a.ids.push(aSessionId);
  await recordAudit(
    database.db,
    {
      companyId: a.companyId,
      principal: {
        kind: "session",
        companyId: a.companyId,
        userId: a.admin.id,
        role: "admin",
        scopes: [],
        sessionId: aSessionId,
      },
      ip: "192.0.2.1",
    },
    {
      kind: "user.role_changed",
      target: { type: "user", id: a.userIds[1]! },
      changes: [{ field: "role", from: "sales_rep", to: "manager" }],
    },
  );
  // An open invite in each company: B must neither see nor revoke A's.
  for (const [company, id] of [
    [a, aInviteId],
    [b, bInviteId],
  ] as const) {
    await database.db.insert(invites).values({
      companyId: company.companyId,
      id,
      email: `invited-${company.token}@example.test`,
      emailNormalized: `invited-${company.token}@example.test`.toLowerCase(),
      role: "sales_rep",
      tokenHash: `isolation-${id}`,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
  }
  a.ids.push(aInviteId);
});

type Check = (res: InvokeResult) => void | Promise<void>;
interface MatrixCall {
  label: string;
  params?: Record<string, string | string[]>;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** A body sent as is (a CSV upload), instead of `body` as JSON. */
  rawBody?: string;
  check: Check;
}

const json = (res: InvokeResult) => res.json as Record<string, unknown>;
const dataOf = (res: InvokeResult) => json(res).data as unknown;

const notFound: Check = (res) => {
  expect(res.status, res.text).toBe(404);
  expect(json(res).status).toBe("error");
};
const emptyList: Check = (res) => {
  expect(res.status, res.text).toBe(200);
  expect(dataOf(res)).toEqual([]);
  const pagination = json(res).pagination as { total: number } | undefined;
  if (pagination) expect(pagination.total).toBe(0);
};
/** The board's totals over a filter only A's leads match: nothing counted. */
const noTotals: Check = (res) => {
  expect(res.status, res.text).toBe(200);
  expect(dataOf(res)).toEqual([]);
  expect(json(res).totals).toEqual({ count: 0, projected_value: 0 });
};
/** The board's totals over a filter B's lead matches: proves the filter counts, so zero for A means something. */
const countsOne: Check = (res) => {
  expect(res.status, res.text).toBe(200);
  expect((json(res).totals as { count: number }).count).toBe(1);
};
const ok: Check = (res) => {
  expect([200, 201], res.text).toContain(res.status);
};
/** A 2xx that shows B's own record: proves the filter works, so an empty answer for A's value means something. */
const seesB =
  (id: () => string): Check =>
  (res) => {
    ok(res);
    expect(res.text).toContain(id());
  };
const status =
  (code: number, errorCode?: string): Check =>
  (res) => {
    expect(res.status, res.text).toBe(code);
    if (errorCode) expect(json(res).error_code).toBe(errorCode);
  };
const planReportEmpty: Check = (res) => {
  expect(res.status, res.text).toBe(200);
  expect((dataOf(res) as { plan_count: number }).plan_count).toBe(0);
};
const csvHeaderOnly: Check = (res) => {
  expect(res.status, res.text).toBe(200);
  expect(res.text.trim().split(/\r?\n/)).toHaveLength(1);
};
/** Create-or-update with A's phone or email: a record of B (new, or B's earlier copy), never A's. */
const upsertedInB =
  (table: typeof leads | typeof customers): Check =>
  async (res) => {
    expect([200, 201], res.text).toContain(res.status);
    const id = String(json(res).id);
    expect(a.ids).not.toContain(id);
    const rows = await database.db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.companyId, b.companyId), eq(table.id, id)));
    expect(rows).toHaveLength(1);
  };

/** A territory ring a body may send. */
const ISOLATION_SQUARE = {
  type: "Polygon",
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ],
  ],
};

const digits = (phone: string) => phone.replace(/\D/g, "");

/** How each route verb is called with A's ids and values, and what B must get. */
const MATRIX: Record<string, () => MatrixCall[]> = {
  "GET /api/auth/test": () => [
    {
      label: "B's own credentials",
      check: (res) => {
        ok(res);
        expect(json(res).company_id).toBe(b.companyId);
      },
    },
  ],
  "GET /api/auth/session": () => [
    {
      label: "B's session",
      check: (res) => {
        ok(res);
        expect((json(res).company as { id: string }).id).toBe(b.companyId);
      },
    },
  ],
  "POST /api/auth/sign-in": () => [
    {
      label: "A's email with B's password",
      body: { email: a.admin.email, password: b.admin.password },
      check: status(401, "INVALID_CREDENTIALS"),
    },
    {
      label: "B's email and password with A's company",
      body: { email: b.admin.email, password: b.admin.password, company_id: a.companyId },
      check: status(401, "INVALID_CREDENTIALS"),
    },
  ],
  // Cross-tenant by design, but only for B's own email: A holds no account with it.
  "GET /api/auth/other-accounts": () => [{ label: "B's session", check: emptyList }],
  "POST /api/auth/sign-out": () => [{ label: "B's session", check: ok }],
  // Two-factor works on the caller's own account only: no id of A can be named.
  "POST /api/auth/sign-in/two-factor": () => [
    { label: "an unknown challenge", body: { challenge: a.token, code: "123456" }, check: status(401) },
  ],
  "GET /api/auth/two-factor": () => [
    {
      label: "B's session",
      check: (res) => {
        ok(res);
        expect(json(res).enabled).toBe(false);
      },
    },
  ],
  "POST /api/auth/two-factor/setup": () => [{ label: "B's own setup", check: ok }],
  "POST /api/auth/two-factor/enable": () => [
    {
      label: "a wrong code",
      body: { code: "000000" },
      // 409 before B's own setup has run, 401 after: either way nothing turns on.
      check: (res) => expect([401, 409], res.text).toContain(res.status),
    },
  ],
  "POST /api/auth/two-factor/disable": () => [
    { label: "B has none", body: { code: "000000" }, check: status(409, "CONFLICT") },
  ],
  "POST /api/auth/two-factor/recovery-codes": () => [
    { label: "B has none", body: { code: "000000" }, check: status(409, "CONFLICT") },
  ],
  "GET /api/settings/two-factor": () => [
    { label: "B's rule", check: (res) => expect(json(res)).toEqual({ require_two_factor: false }) },
  ],
  "PUT /api/settings/two-factor": () => [
    { label: "B's rule", body: { require_two_factor: false }, check: ok },
  ],
  // A's invite and reset links are secrets B does not hold: any token B sends is unknown.
  "POST /api/auth/invites/accept": () => [
    {
      label: "a token that is no invite",
      body: { token: "x".repeat(43), name: "Intruder", password: "a long password" },
      check: status(400, "VALIDATION_ERROR"),
    },
  ],
  "POST /api/auth/password-reset": () => [
    { label: "A's admin email", body: { email: a.admin.email }, check: status(202) },
  ],
  "POST /api/auth/password-reset/confirm": () => [
    {
      label: "a token that is no reset link",
      body: { token: "x".repeat(43), password: "a long password" },
      check: status(400, "VALIDATION_ERROR"),
    },
  ],
  "GET /api/openapi.json": () => [{ label: "public document", check: ok }],

  "GET /api/leads/[id]": () => [
    { label: "A's lead", params: { id: a.lead.id }, check: notFound },
    { label: "A's archived lead", params: { id: a.lead.archivedId }, check: notFound },
    { label: "B's lead", params: { id: b.lead.id }, check: seesB(() => b.lead.id) },
  ],
  "GET /api/leads": () => [
    { label: "search A's token", query: { search: a.token }, check: emptyList },
    { label: "search A's token, archived", query: { search: a.token, archived: "true" }, check: emptyList },
    { label: "search A's phone digits", query: { search: digits(a.lead.phone) }, check: emptyList },
    { label: "search A's phone", query: { search: a.lead.phone }, check: emptyList },
    { label: "search A's email", query: { search: a.lead.email }, check: emptyList },
    { label: "search A's name", query: { search: a.lead.name }, check: emptyList },
    { label: "A's stage", query: { stage: a.lead.stage, archived: "true" }, check: emptyList },
    { label: "A's tag", query: { tags: a.tag, archived: "true" }, check: emptyList },
    { label: "B's token", query: { search: b.token }, check: seesB(() => b.lead.id) },
    { label: "B's tag", query: { tags: b.tag }, check: seesB(() => b.lead.id) },
    { label: "B's stage", query: { stage: b.lead.stage }, check: seesB(() => b.lead.id) },
    { label: "A's rep", query: { assigned_to: a.userIds[1]!, archived: "true" }, check: emptyList },
    { label: "B's rep", query: { assigned_to: b.userIds[1]! }, check: seesB(() => b.lead.id) },
    { label: "A's note", query: { note: a.token, archived: "true" }, check: emptyList },
    { label: "B's note", query: { note: b.token }, check: seesB(() => b.lead.id) },
    { label: "A's territory", query: { territory_id: a.territoryId, archived: "true" }, check: notFound },
    { label: "B's territory", query: { territory_id: b.territoryId }, check: seesB(() => b.lead.id) },
    { label: "no filter", check: seesB(() => b.lead.id) },
  ],
  "GET /api/leads/[id]/activity": () => [
    { label: "A's lead", params: { id: a.lead.id }, check: notFound },
    { label: "B's lead", params: { id: b.lead.id }, check: seesB(() => `Lead note ${b.token}`) },
  ],
  "POST /api/leads/[id]/notes": () => [
    { label: "A's lead", params: { id: a.lead.id }, body: { body: "B's note" }, check: notFound },
  ],
  "POST /api/leads/[id]/archive": () => [{ label: "A's lead", params: { id: a.lead.id }, check: notFound }],
  "POST /api/leads/[id]/unarchive": () => [
    { label: "A's archived lead", params: { id: a.lead.archivedId }, check: notFound },
  ],
  "POST /api/leads/[id]/convert": () => [
    { label: "A's lead", params: { id: a.lead.id }, check: notFound },
    { label: "A's lead, dry run", params: { id: a.lead.id }, query: { dry_run: "true" }, check: notFound },
    {
      // B's archived lead with A's customer's phone converts to a customer of B's, never A's. Archived,
      // because the other rows find B's active lead by its stage, which a conversion changes.
      label: "B's lead with A's customer's phone",
      params: { id: b.lead.archivedId },
      body: { phone: a.customer.phone, email: a.customer.email },
      check: (res) => {
        ok(res);
        expect((json(res).data as { id: string }).id).not.toBe(a.customer.id);
      },
    },
  ],
  "GET /api/leads/stage-totals": () => [
    { label: "search A's name", query: { search: a.lead.name, archived: "true" }, check: noTotals },
    { label: "A's stage", query: { stage: a.lead.stage, archived: "true" }, check: noTotals },
    { label: "A's tag", query: { tags: a.tag, archived: "true" }, check: noTotals },
    { label: "B's token", query: { search: b.token }, check: countsOne },
    { label: "B's tag", query: { tags: b.tag }, check: countsOne },
    { label: "A's rep", query: { assigned_to: a.userIds[1]!, archived: "true" }, check: noTotals },
    { label: "B's rep", query: { assigned_to: b.userIds[1]! }, check: countsOne },
    { label: "A's territory", query: { territory_id: a.territoryId, archived: "true" }, check: notFound },
    { label: "B's territory", query: { territory_id: b.territoryId }, check: countsOne },
  ],
  "POST /api/leads": () => [
    { label: "A's lead id", body: { id: a.lead.id, name: "Taken over" }, check: notFound },
    { label: "A's archived lead id", body: { id: a.lead.archivedId, notes: "x" }, check: notFound },
    { label: "A's phone", body: { phone: a.lead.phone, name: "B's own lead" }, check: upsertedInB(leads) },
    {
      label: "A's email in capitals",
      body: { email: a.lead.email.toUpperCase() },
      check: upsertedInB(leads),
    },
    {
      label: "assigned to A's rep",
      body: { id: b.lead.id, assigned_to: a.userIds[1]! },
      check: status(400, "VALIDATION_ERROR"),
    },
  ],
  "POST /api/leads/bulk": () => {
    const archive = { type: "archive" };
    const matchesNone = (res: InvokeResult) => {
      expect(res.status, res.text).toBe(200);
      expect([json(res).matched, json(res).changed]).toEqual([0, 0]);
    };
    return [
      {
        label: "A's lead ids",
        body: { ids: [a.lead.id, a.lead.archivedId], action: archive },
        check: status(400),
      },
      {
        label: "A's and B's ids",
        body: { ids: [b.lead.id, a.lead.id], action: archive },
        check: status(400),
      },
      ...[
        { search: a.token },
        { search: digits(a.lead.phone) },
        { stage: a.lead.stage },
        { tags: [a.tag] },
        { assigned_to: a.userIds[1]! },
      ].map((filter) => ({
        label: `filter ${Object.keys(filter)[0]} of A`,
        body: { filter: { ...filter, archived: true }, action: archive },
        check: matchesNone,
      })),
      {
        label: "filter territory_id of A",
        body: { filter: { territory_id: a.territoryId, archived: true }, action: archive },
        check: notFound,
      },
      {
        label: "B's lead to A's rep",
        body: { ids: [b.lead.id], action: { type: "assign", assigned_to: a.userIds[1]! } },
        check: status(400, "VALIDATION_ERROR"),
      },
      {
        label: "B's tag",
        body: { filter: { tags: [b.tag] }, action: { type: "add_tags", tags: ["bulk"] } },
        check: (res) => {
          ok(res);
          expect(json(res).matched).toBe(1);
        },
      },
    ];
  },
  "POST /api/leads/bulk/[id]/undo": () => [
    { label: "A's bulk change", params: { id: aBulkId }, check: notFound },
  ],
  "GET /api/users": () => [{ label: "B's users", check: seesB(() => b.userIds[1]!) }],

  "GET /api/pipeline": () => [{ label: "B's pipeline", check: seesB(() => b.pipeline[0]!.label) }],
  "GET /api/settings/pipeline": () => [{ label: "B's pipeline", check: seesB(() => b.pipeline[0]!.label) }],
  "PUT /api/settings/pipeline": () => [
    {
      label: "B's stages and A's stage key",
      body: { stages: [...b.pipeline, { ...a.pipeline[0]!, label: "Copied key" }] },
      check: seesB(() => b.pipeline[1]!.label),
    },
  ],

  "GET /api/customers/[id]/activity": () => [
    { label: "A's customer", params: { id: a.customer.id }, check: notFound },
    { label: "B's customer", params: { id: b.customer.id }, check: seesB(() => `Customer note ${b.token}`) },
  ],
  "POST /api/customers/[id]/notes": () => [
    { label: "A's customer", params: { id: a.customer.id }, body: { body: "B's note" }, check: notFound },
  ],
  "POST /api/customers/bulk": () => [
    {
      label: "A's customer ids",
      body: { ids: [a.customer.id, a.customer.archivedId], action: { type: "archive" } },
      check: status(400, "VALIDATION_ERROR"),
    },
    {
      label: "A's and B's ids",
      body: { ids: [b.customer.id, a.customer.archivedId], action: { type: "unarchive" } },
      check: status(400, "VALIDATION_ERROR"),
    },
  ],
  "POST /api/customers/bulk/[id]/undo": () => [
    { label: "A's bulk change", params: { id: aCustomerBulkId }, check: notFound },
  ],
  "POST /api/customers/[id]/archive": () => [
    { label: "A's customer", params: { id: a.customer.id }, check: notFound },
  ],
  "POST /api/customers/[id]/unarchive": () => [
    { label: "A's archived customer", params: { id: a.customer.archivedId }, check: notFound },
  ],
  "GET /api/customers/[id]": () => [
    { label: "A's customer", params: { id: a.customer.id }, check: notFound },
    { label: "A's archived customer", params: { id: a.customer.archivedId }, check: notFound },
    { label: "B's customer", params: { id: b.customer.id }, check: seesB(() => b.customer.id) },
  ],
  "GET /api/customers": () => [
    { label: "search A's token", query: { search: a.token, archived: "true" }, check: emptyList },
    { label: "search A's phone digits", query: { search: digits(a.customer.phone) }, check: emptyList },
    { label: "search A's email", query: { search: a.customer.email }, check: emptyList },
    {
      label: "search A's full name",
      query: { search: `${a.customer.firstName} ${a.customer.lastName}` },
      check: emptyList,
    },
    { label: "search A's company name", query: { search: a.customer.companyName }, check: emptyList },
    { label: "A's tag", query: { tags: a.tag, archived: "true" }, check: emptyList },
    { label: "A's tag, active", query: { tags: a.tag, status: "active" }, check: emptyList },
    { label: "B's token", query: { search: b.token }, check: seesB(() => b.customer.id) },
    { label: "B's tag", query: { tags: b.tag }, check: seesB(() => b.customer.id) },
    { label: "no filter", check: seesB(() => b.customer.id) },
  ],
  "POST /api/customers": () => [
    { label: "A's customer id", body: { id: a.customer.id, first_name: "Taken" }, check: notFound },
    { label: "A's archived customer id", body: { id: a.customer.archivedId }, check: notFound },
    {
      label: "A's phone",
      body: { phone: a.customer.phone, first_name: "B's own" },
      check: upsertedInB(customers),
    },
    {
      label: "A's email in capitals",
      body: { email: a.customer.email.toUpperCase(), last_name: "B" },
      check: upsertedInB(customers),
    },
  ],

  "GET /api/territories": () => [
    { label: "B's territories", check: seesB(() => b.territoryId) },
    { label: "A's rep", query: { assigned_to: a.userIds[1]! }, check: emptyList },
    { label: "B's rep", query: { assigned_to: b.userIds[1]! }, check: seesB(() => b.territoryId) },
  ],
  "POST /api/territories": () => [
    { label: "A's territory", body: { id: a.territoryId, name: "Taken" }, check: notFound },
    {
      label: "A's rep assigned",
      body: { name: "Mine", polygon: ISOLATION_SQUARE, assigned_to: [a.userIds[1]!] },
      check: status(400, "VALIDATION_ERROR"),
    },
  ],
  "DELETE /api/territories/[id]": () => [
    { label: "A's territory", params: { id: a.territoryId }, check: notFound },
  ],
  "GET /api/pin-types": () => [{ label: "B's pin types", check: seesB(() => b.pinTypeId) }],
  "GET /api/pins": () => [
    { label: "A's pin type", query: { pin_type_id: a.pinTypeId }, check: emptyList },
    { label: "A's user", query: { user_id: a.userIds[1]! }, check: emptyList },
    {
      label: "A's pin type and user",
      query: { pin_type_id: a.pinTypeId, user_id: a.userIds[1]! },
      check: emptyList,
    },
    { label: "B's pin type", query: { pin_type_id: b.pinTypeId }, check: seesB(() => b.pinId) },
    { label: "B's user", query: { user_id: b.userIds[1]! }, check: seesB(() => b.pinId) },
    { label: "A's creator", query: { created_by: a.userIds[1]! }, check: emptyList },
    { label: "A's lead", query: { lead_id: a.lead.id }, check: emptyList },
    { label: "B's lead", query: { lead_id: b.lead.id }, check: seesB(() => b.pinId) },
    { label: "A's territory", query: { territory_id: a.territoryId }, check: notFound },
    { label: "B's territory", query: { territory_id: b.territoryId }, check: seesB(() => b.pinId) },
    // A's and B's pins are at the same place: the box shows B's only.
    { label: "the whole world", query: { bbox: "-90,-180,90,180" }, check: seesB(() => b.pinId) },
    {
      label: "A's pin's spot",
      query: { bbox: "30,-98,31,-97", updated_since: "2026-01-01" },
      check: seesB(() => b.pinId),
    },
  ],
  "GET /api/pins/[id]": () => [
    { label: "A's pin", params: { id: a.pinId }, check: notFound },
    { label: "B's pin", params: { id: b.pinId }, check: seesB(() => `Pin notes ${b.token}`) },
  ],
  "POST /api/pins": () => {
    const knock = { location: [30.1, -97.2], pin_type_id: b.pinTypeId, created_by: b.userIds[1]! };
    return [
      { label: "A's pin", body: { id: a.pinId, notes: "Taken over" }, check: notFound },
      { label: "A's pin's new type", body: { id: a.pinId, pin_type_id: b.pinTypeId }, check: notFound },
      {
        label: "A's pin type",
        body: { ...knock, pin_type_id: a.pinTypeId },
        check: status(400, "VALIDATION_ERROR"),
      },
      { label: "A's lead", body: { ...knock, lead_id: a.lead.id }, check: status(400, "VALIDATION_ERROR") },
      {
        label: "B's pin to A's type and lead",
        body: { id: b.pinId, pin_type_id: a.pinTypeId, lead_id: a.lead.id },
        check: status(400, "VALIDATION_ERROR"),
      },
      {
        // A key must name a user of B's; a session's knocker is its own user, whatever the body says.
        label: "A's user as the knocker",
        body: { ...knock, created_by: a.userIds[1]! },
        check: async (res) => {
          if (res.status === 400) return status(400, "VALIDATION_ERROR")(res);
          expect(res.status, res.text).toBe(201);
          expect((json(res).created_by as { user_id: string }).user_id).toBe(b.admin.id);
        },
      },
      {
        label: "A's client_id",
        body: { ...knock, client_id: aClientId },
        check: async (res) => {
          ok(res);
          const { rows } = await database.db.execute<{ company_id: string }>(
            sql`select company_id from pins where client_id = ${aClientId} order by company_id`,
          );
          expect(rows.map((r) => r.company_id).sort()).toEqual([a.companyId, b.companyId].sort());
        },
      },
    ];
  },
  "GET /api/lost-reasons": () => [{ label: "B's lost reasons", check: seesB(() => b.lostReasonId) }],
  "GET /api/settings/lost-reasons": () => [{ label: "B's lost reasons", check: seesB(() => b.lostReasonId) }],
  "PUT /api/settings/lost-reasons": () => [
    {
      label: "A's lost reason id",
      body: {
        reasons: [
          { id: b.lostReasonId, label: `Reason ${b.token}` },
          { id: a.lostReasonId, label: "A" },
        ],
      },
      check: status(400, "VALIDATION_ERROR"),
    },
    {
      label: "B's lost reason and a new one",
      body: { reasons: [{ id: b.lostReasonId, label: `Reason ${b.token}` }, { label: "New" }] },
      check: seesB(() => b.lostReasonId),
    },
  ],
  "GET /api/settings/pin-types": () => [{ label: "B's pin types", check: seesB(() => b.pinTypeId) }],
  "PUT /api/settings/pin-types": () => [
    {
      label: "A's pin type id",
      body: {
        pin_types: [
          { id: b.pinTypeId, label: "B", color: "#000" },
          { id: a.pinTypeId, label: "A", color: "#111" },
        ],
      },
      check: status(400, "VALIDATION_ERROR"),
    },
    {
      label: "B's pin type and a new one",
      body: {
        pin_types: [
          { id: b.pinTypeId, label: `Pin type ${b.token}`, color: "#aa3344" },
          { label: "New", color: "#222" },
        ],
      },
      check: seesB(() => b.pinTypeId),
    },
  ],
  "GET /api/service-plans": () => [
    { label: "A's seller", query: { sold_by_user_id: a.userIds[1]! }, check: emptyList },
    { label: "A's service type", query: { service_type: a.serviceType }, check: emptyList },
    { label: "B's seller", query: { sold_by_user_id: b.userIds[1]! }, check: seesB(() => b.planId) },
    { label: "A's customer", query: { customer_id: a.customer.id }, check: emptyList },
    { label: "B's customer", query: { customer_id: b.customer.id }, check: seesB(() => b.planId) },
    { label: "no filter", check: seesB(() => b.planId) },
  ],
  "GET /api/serviced-jobs": () => [
    { label: "every job", query: { only_completed: "false" }, check: seesB(() => b.jobIds[1]!) },
    {
      label: "A's customer",
      query: { only_completed: "false", customer_id: a.customer.id },
      check: emptyList,
    },
    {
      label: "B's customer",
      query: { only_completed: "false", customer_id: b.customer.id },
      check: seesB(() => b.jobIds[1]!),
    },
    {
      label: "A's visit dates",
      query: { service_date_range_start: "2026-01-20", service_date_range_end: "2026-01-20" },
      check: seesB(() => b.jobIds[0]!),
    },
  ],
  "GET /api/reports/service-plans": () => [
    { label: "A's seller", query: { sold_by_user_id: a.userIds[1]! }, check: planReportEmpty },
    { label: "A's service type", query: { service_type: a.serviceType }, check: planReportEmpty },
    { label: "A's customer", query: { customer_id: a.customer.id }, check: planReportEmpty },
    {
      label: "B's seller",
      query: { sold_by_user_id: b.userIds[1]! },
      check: (res) => {
        ok(res);
        expect((dataOf(res) as { plan_count: number }).plan_count).toBe(1);
      },
    },
    {
      label: "B's customer",
      query: { customer_id: b.customer.id },
      check: (res) => {
        ok(res);
        expect((dataOf(res) as { plan_count: number }).plan_count).toBe(1);
      },
    },
  ],
  "GET /api/reports/service-plans/export": () => [
    { label: "A's seller", query: { sold_by_user_id: a.userIds[1]! }, check: csvHeaderOnly },
    { label: "A's service type", query: { service_type: a.serviceType }, check: csvHeaderOnly },
    { label: "A's customer", query: { customer_id: a.customer.id }, check: csvHeaderOnly },
    { label: "B's customer", query: { customer_id: b.customer.id }, check: seesB(() => b.planId) },
    { label: "no filter", check: seesB(() => b.planId) },
  ],
  "GET /api/reports/serviced-jobs": () => [
    {
      label: "every job",
      query: { only_completed: "false" },
      check: (res) => {
        ok(res);
        expect((dataOf(res) as { job_count: number }).job_count).toBe(2);
      },
    },
    {
      label: "A's customer",
      query: { only_completed: "false", customer_id: a.customer.id },
      check: (res) => {
        ok(res);
        expect((dataOf(res) as { job_count: number }).job_count).toBe(0);
      },
    },
    {
      label: "B's customer",
      query: { only_completed: "false", customer_id: b.customer.id },
      check: (res) => {
        ok(res);
        expect((dataOf(res) as { job_count: number }).job_count).toBe(2);
      },
    },
  ],
  "GET /api/reports/serviced-jobs/export": () => [
    { label: "every job", query: { only_completed: "false" }, check: seesB(() => b.jobIds[1]!) },
    {
      label: "A's customer",
      query: { only_completed: "false", customer_id: a.customer.id },
      check: csvHeaderOnly,
    },
    {
      label: "B's customer",
      query: { only_completed: "false", customer_id: b.customer.id },
      check: seesB(() => b.jobIds[1]!),
    },
  ],

  "GET /api/reports/field-activity": () => [
    { label: "A's territory", query: { territory_id: a.territoryId }, check: notFound },
    {
      label: "everything",
      check: (res) => {
        ok(res);
        const rows = dataOf(res) as { user: { user_id: string } }[];
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) expect(b.userIds).toContain(row.user.user_id);
      },
    },
  ],
  "GET /api/reports/field-activity/export": () => [
    { label: "A's territory", query: { territory_id: a.territoryId }, check: notFound },
    { label: "everything", check: seesB(() => b.userIds[1]!) },
  ],

  "POST /api/imports": () => [
    {
      label: "a file with A's lead phone",
      query: { type: "leads", file_name: "b.csv" },
      rawBody: `Name,Phone\nCopy,${a.lead.phone}\n`,
      check: status(201),
    },
  ],
  "GET /api/imports": () => [{ label: "B's imports", check: seesB(() => importIds.b) }],
  "GET /api/imports/[id]": () => [{ label: "A's import", params: { id: importIds.a }, check: notFound }],
  "DELETE /api/imports/[id]": () => [{ label: "A's import", params: { id: importIds.a }, check: notFound }],
  "POST /api/imports/[id]/dry-run": () => [
    { label: "A's import", params: { id: importIds.a }, body: { mapping: ["name"] }, check: notFound },
  ],
  "POST /api/imports/[id]/start": () => [
    { label: "A's import", params: { id: importIds.a }, check: notFound },
  ],
  "POST /api/imports/[id]/cancel": () => [
    { label: "A's import", params: { id: importIds.a }, check: notFound },
  ],
  "GET /api/imports/[id]/problems": () => [
    { label: "A's import", params: { id: importIds.a }, check: notFound },
  ],
  "GET /api/imports/[id]/problems/export": () => [
    { label: "A's import", params: { id: importIds.a }, check: notFound },
  ],
  "GET /api/settings/api-keys": () => [{ label: "B's keys", check: seesB(() => b.keyId) }],
  "POST /api/settings/api-keys": () => [
    { label: "a new key", body: { name: "Isolation", scopes: ["leads:read"] }, check: status(201) },
  ],
  "POST /api/settings/api-keys/[id]/revoke": () => [
    { label: "A's key", params: { id: a.keyId }, check: notFound },
  ],
  "GET /api/settings/webhooks": () => [{ label: "B's endpoints", check: seesB(() => b.webhookEndpointId) }],
  "POST /api/settings/webhooks": () => [
    { label: "update A's endpoint", body: { id: a.webhookEndpointId, enabled: false }, check: notFound },
    {
      label: "a new endpoint",
      body: { url: "https://93.184.215.14/hook", events: ["lead.created"] },
      check: status(201),
    },
  ],
  "DELETE /api/settings/webhooks/[id]": () => [
    { label: "A's endpoint", params: { id: a.webhookEndpointId }, check: notFound },
  ],
  "POST /api/settings/webhooks/[id]/rotate-secret": () => [
    { label: "A's endpoint", params: { id: a.webhookEndpointId }, check: notFound },
  ],
  "GET /api/settings/users": () => [{ label: "B's users", check: seesB(() => b.admin.id) }],
  "POST /api/settings/users": () => [
    {
      label: "A's admin email",
      body: { name: "Copy", email: a.admin.email, role: "admin", password: "another password" },
      check: status(201),
    },
    { label: "A's sales rep's role", body: { id: a.userIds[1]!, role: "admin" }, check: notFound },
  ],
  "POST /api/settings/users/[id]/sign-out": () => [
    { label: "A's admin", params: { id: a.admin.id }, check: notFound },
  ],
  "GET /api/settings/audit-log": () => [
    { label: "A's admin as actor", query: { actor: a.admin.id }, check: emptyList },
    { label: "A's kind", query: { kind: "user.role_changed" }, check: emptyList },
    { label: "everything", check: ok },
  ],
  "GET /api/settings/audit-log/export": () => [
    { label: "A's admin as actor", query: { actor: a.admin.id }, check: csvHeaderOnly },
    { label: "everything", check: ok },
  ],
  "GET /api/auth/sessions": () => [
    {
      label: "B's own",
      check: (res) => {
        ok(res);
        expect((dataOf(res) as { current: boolean }[]).some((s) => s.current)).toBe(true);
      },
    },
  ],
  "DELETE /api/auth/sessions": () => [{ label: "others", query: { others: "true" }, check: status(200) }],
  "DELETE /api/auth/sessions/[id]": () => [
    { label: "A's admin's session", params: { id: aSessionId }, check: notFound },
  ],
  "POST /api/settings/users/[id]/activate": () => [
    { label: "A's admin", params: { id: a.admin.id }, check: notFound },
    { label: "A's technician", params: { id: a.userIds[2]! }, check: notFound },
  ],
  "POST /api/settings/webhooks/[id]/test": () => [
    { label: "A's endpoint", params: { id: aWebhook.endpointId }, check: notFound },
  ],
  "GET /api/settings/webhooks/[id]/deliveries": () => [
    { label: "A's endpoint", params: { id: aWebhook.endpointId }, check: notFound },
  ],
  "POST /api/settings/webhooks/[id]/deliveries/[delivery_id]/resend": () => [
    {
      label: "A's delivery",
      params: { id: aWebhook.endpointId, delivery_id: aWebhook.deliveryId },
      check: notFound,
    },
  ],
  "POST /api/settings/users/[id]/password-reset": () => [
    { label: "A's admin", params: { id: a.admin.id }, check: notFound },
    { label: "A's sales rep", params: { id: a.userIds[1]! }, check: notFound },
  ],
  "GET /api/settings/invites": () => [{ label: "B's invites", check: seesB(() => bInviteId) }],
  "POST /api/settings/invites": () => [
    { label: "A's admin email", body: { email: a.admin.email, role: "admin" }, check: status(201) },
  ],
  "DELETE /api/settings/invites/[id]": () => [
    { label: "A's invite", params: { id: aInviteId }, check: notFound },
  ],
  "POST /api/settings/users/[id]/deactivate": () => [
    { label: "A's admin", params: { id: a.admin.id }, check: notFound },
    { label: "A's sales rep", params: { id: a.userIds[1]! }, check: notFound },
  ],
};

/** The catch-all answers any other path with a JSON 404, whatever the verb. */
const CATCH_ALL = "/api/[...path]";

describe(`tenant isolation matrix (${testEngine()})`, () => {
  it("has a way to call every route verb under app/api, and nothing stale", () => {
    const callable = routes.filter((r) => !r.notAllowed && r.pattern !== CATCH_ALL).map((r) => r.name);
    expect(callable.length).toBeGreaterThan(20);
    const missing = callable.filter((name) => !(name in MATRIX));
    expect(missing, "route verbs the isolation matrix does not know how to call").toEqual([]);
    const stale = Object.keys(MATRIX).filter((name) => !callable.includes(name));
    expect(stale, "matrix entries for route verbs that no longer exist").toEqual([]);
    // Hand-written handlers (no apiRoute declaration, not a 405) are only allowed for the catch-all.
    const undeclared = routes.filter((r) => !r.declaration && !r.notAllowed && r.pattern !== CATCH_ALL);
    expect(undeclared.map((r) => r.name)).toEqual([]);
  });

  it("never shows B anything of A, with B's key or B's admin session; A is left unchanged", async () => {
    const before = snapshotHash(await snapshotTables(database.db, { companyIds: [a.companyId] }));
    // A's emails and phones, once B has sent them, may legitimately be in B's own records.
    const sentContacts = new Set<string>();
    const principals = {
      key: async () => ({ "x-api-key": b.key, "service-api-version": "1.1.0" }),
      session: async () => ({
        // A fresh session per call: sign-out ends its own session, not the next call's.
        cookie: await createSessionCookie(database.db, { companyId: b.companyId, id: b.admin.id }),
        "service-api-version": "1.1.0",
      }),
    };
    let calls = 0;
    for (const route of routes) {
      const planned: MatrixCall[] = route.notAllowed
        ? [{ label: "not allowed", params: paramsFor(route), check: status(405, "METHOD_NOT_ALLOWED") }]
        : route.pattern === CATCH_ALL
          ? [
              {
                label: "unknown path with A's id",
                params: { path: ["leads", a.lead.id, "notes"] },
                check: status(404, "NOT_FOUND"),
              },
            ]
          : MATRIX[route.name]!();
      for (const [principalName, headersFor] of Object.entries(principals)) {
        for (const call of planned) {
          const res = await invoke(route, {
            params: call.params,
            query: call.query && definedOnly(call.query),
            body: call.body,
            rawBody: call.rawBody,
            headers: await headersFor(),
          });
          calls++;
          const where = `${route.name} [${call.label}] as B's ${principalName}`;
          const sessionOnly = route.declaration && declaredAccess(route.declaration).auth === "session";
          if (sessionOnly && principalName === "key" && !route.notAllowed) {
            expect(res.status, where).toBe(403);
          } else {
            try {
              await call.check(res);
            } catch (error) {
              throw new Error(`${where}: ${(error as Error).message}`);
            }
          }
          assertNothingOfA(res, sentContacts, where);
        }
      }
    }
    expect(calls).toBeGreaterThan(100);

    // A's rows, every table: not one byte changed.
    const after = snapshotHash(await snapshotTables(database.db, { companyIds: [a.companyId] }));
    expect(after).toBe(before);
    expect(await loadPipeline(database.db, a.companyId)).toEqual(a.pipeline);
    // A's phones now also live in B, as B's own records, exactly once each.
    for (const [table, phone] of [
      ["leads", a.lead.phone],
      ["customers", a.customer.phone],
    ] as const) {
      const rows = (
        await database.db.execute<{ company_id: string }>(
          sql`select company_id from ${sql.identifier(table)} where phone_normalized = ${digits(phone)} order by company_id`,
        )
      ).rows;
      expect(rows.map((r) => r.company_id).sort()).toEqual([a.companyId, b.companyId].sort());
    }
  });
});

function paramsFor(route: ApiRouteVerb): Record<string, string | string[]> {
  return Object.fromEntries(
    route.paramNames.map((name) => [name, route.pattern.includes("...") ? ["x", a.lead.id] : a.lead.id]),
  );
}

/**
 * Scans a response (body and headers, any case) for A's ids and values. What B sent may be echoed, so
 * A's emails and phones are allowed once B has sent them: B then holds them as its own.
 */
function assertNothingOfA(res: InvokeResult, sentContacts: Set<string>, where: string): void {
  const sent = res.sent.toLowerCase();
  const decodedSent = safeDecode(sent);
  for (const contact of a.contacts) {
    const c = contact.toLowerCase();
    if (sent.includes(c) || decodedSent.includes(c)) sentContacts.add(c);
  }
  const headerText = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join("\n");
  const received = `${res.text}\n${headerText}`.toLowerCase();
  const forbidden = [...a.ids, ...a.secrets, ...a.contacts]
    .map((v) => v.toLowerCase())
    .filter((v) => !sentContacts.has(v) && !sent.includes(v) && !decodedSent.includes(v));
  const leaked = forbidden.filter((v) => received.includes(v));
  expect(leaked, `${where} leaked A's data: ${res.text.slice(0, 300)}`).toEqual([]);
}

function definedOnly(query: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

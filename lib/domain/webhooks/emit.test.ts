import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as upsertCustomerRoute } from "@/app/api/customers/route";
import { GET as getCustomerRoute } from "@/app/api/customers/[id]/route";
import { POST as archiveCustomerRoute } from "@/app/api/customers/[id]/archive/route";
import { POST as bulkCustomersRoute } from "@/app/api/customers/bulk/route";
import { POST as undoCustomersRoute } from "@/app/api/customers/bulk/[id]/undo/route";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
import { GET as getLeadRoute } from "@/app/api/leads/[id]/route";
import { POST as archiveLeadRoute } from "@/app/api/leads/[id]/archive/route";
import { POST as unarchiveLeadRoute } from "@/app/api/leads/[id]/unarchive/route";
import { POST as convertRoute } from "@/app/api/leads/[id]/convert/route";
import { POST as bulkLeadsRoute } from "@/app/api/leads/bulk/route";
import { POST as undoLeadsRoute } from "@/app/api/leads/bulk/[id]/undo/route";
import { POST as upsertPinRoute } from "@/app/api/pins/route";
import { GET as getPinRoute } from "@/app/api/pins/[id]/route";
import { webhookEndpoints, type WebhookEventType } from "@/lib/db/schema";
import { importDocument } from "@/lib/import";
import { ID_PREFIX, newId } from "@/lib/ids";
import { WEBHOOK_EVENT_TYPES } from "@/lib/values/enums";
import { apiRequest, call, createApiKey, createCompany, createUser } from "@/lib/testing/factories";
import { insertPinType } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { addDeliverJobs, DELIVER_QUEUE } from "./queue";
import { relayEvents } from "./relay";

/*
 * extensions.md E8: every writer of a lead, customer or pin writes one outbox event per record it
 * changed, in the change's own transaction; the relay then writes one delivery per subscribed
 * enabled endpoint, and its job.
 */

const database = setupTestDatabase();

type Body = Record<string, unknown>;
type Route = Parameters<typeof call>[0];

interface EventRow extends Record<string, unknown> {
  id: string;
  type: string;
  record_id: string;
  payload: { type: string; timestamp: string; data: Body } | string;
}

async function addEndpoint(
  companyId: string,
  events: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES,
  enabled = true,
) {
  const id = newId(ID_PREFIX.webhookEndpoint);
  await database.db.insert(webhookEndpoints).values({
    companyId,
    id,
    url: "https://hooks.example.test/in",
    events: [...events],
    secret: `whsec_${randomBytes(24).toString("base64")}`,
    enabled,
  });
  return id;
}

/** The company's events, in writing order. */
async function events(companyId: string) {
  const { rows } = await database.db.execute<EventRow>(sql`select e.id, e.type, e.record_id, e.payload
    from webhook_events e where e.company_id = ${companyId} order by e.created_at, e.id`);
  return rows.map((row) => ({
    ...row,
    payload:
      typeof row.payload === "string"
        ? (JSON.parse(row.payload) as Exclude<EventRow["payload"], string>)
        : row.payload,
  }));
}

/** Relays every waiting event of the database, batch after batch. */
async function relayAll() {
  while ((await relayEvents(database.db)).events > 0);
}

/** The deliveries of an event, by endpoint, once relayed. */
async function deliveriesOf(companyId: string, eventId: string) {
  const { rows } = await database.db.execute<{ id: string; endpoint_id: string; status: string }>(
    sql`select id, endpoint_id, status from webhook_deliveries
      where company_id = ${companyId} and event_id = ${eventId} order by endpoint_id`,
  );
  return rows;
}

/** Runs `work` while every insert of the company's rows into `table` raises an error. */
async function whileInsertsFail(table: string, companyId: string, work: () => Promise<void>) {
  const name = `fail_${table}_${randomBytes(4).toString("hex")}`;
  await database.db.execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin raise exception 'injected failure'; end $$`),
  );
  await database.db.execute(
    sql.raw(`create trigger ${name} before insert on ${table}
      for each row when (new.company_id = '${companyId}') execute function ${name}()`),
  );
  try {
    await work();
  } finally {
    await database.db.execute(sql.raw(`drop trigger ${name} on ${table}`));
    await database.db.execute(sql.raw(`drop function ${name}()`));
  }
}

/** Runs `work` and answers the events it wrote. */
async function emitted(companyId: string, work: () => Promise<unknown>) {
  const before = new Set((await events(companyId)).map((e) => e.id));
  await work();
  return (await events(companyId)).filter((e) => !before.has(e.id));
}
const summary = (list: { type: string; record_id: string }[]) =>
  list.map((e) => `${e.type} ${e.record_id}`).sort();

async function tenant() {
  const company = await createCompany(database.db);
  const { key } = await createApiKey(database.db, company.id);
  return { companyId: company.id, key };
}

const send = async (route: Route, path: string, key: string, body?: unknown, id?: string) => {
  const res = await call<Body>(route, apiRequest(path, { key, method: "POST", body }), id ? { id } : {});
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
};
const get = async (route: Route, path: string, key: string, id: string) =>
  (await call<{ data: Body }>(route, apiRequest(path, { key }), { id })).body.data;

describe(`webhook events from every writer (${testEngine()})`, () => {
  it("a lead's and a customer's create and update: one event each, data as GET answers it", async () => {
    const t = await tenant();
    const endpoint = await addEndpoint(t.companyId);
    await addEndpoint(t.companyId, ["lead.created"]);
    let lead = "";
    const created = await emitted(t.companyId, async () => {
      lead = (await send(upsertLeadRoute, "/leads", t.key, { name: "Lena", phone: "512-555-0101" }))
        .id as string;
    });
    expect(summary(created)).toEqual([`lead.created ${lead}`]);
    // The write leaves the fan-out to the relay.
    expect(await deliveriesOf(t.companyId, created[0]!.id)).toEqual([]);
    await relayAll();
    expect(await deliveriesOf(t.companyId, created[0]!.id)).toHaveLength(2);
    expect(created[0]!.payload).toMatchObject({
      type: "lead.created",
      data: await get(getLeadRoute, `/leads/${lead}`, t.key, lead),
    });
    expect(new Date(created[0]!.payload.timestamp).toString()).not.toBe("Invalid Date");

    const updated = await emitted(t.companyId, () =>
      send(upsertLeadRoute, "/leads", t.key, { id: lead, stage: "quoted" }),
    );
    expect(summary(updated)).toEqual([`lead.updated ${lead}`]);
    await relayAll();
    expect(await deliveriesOf(t.companyId, updated[0]!.id)).toEqual([
      { id: expect.any(String), endpoint_id: endpoint, status: "pending" },
    ]);
    expect(updated[0]!.payload.data).toEqual(await get(getLeadRoute, `/leads/${lead}`, t.key, lead));

    // An upsert that changes nothing emits nothing.
    expect(
      await emitted(t.companyId, () => send(upsertLeadRoute, "/leads", t.key, { id: lead, stage: "quoted" })),
    ).toEqual([]);

    let customer = "";
    const c = await emitted(t.companyId, async () => {
      customer = (await send(upsertCustomerRoute, "/customers", t.key, { first_name: "Cara" })).id as string;
    });
    expect(summary(c)).toEqual([`customer.created ${customer}`]);
    expect(c[0]!.payload.data).toEqual(
      await get(getCustomerRoute, `/customers/${customer}`, t.key, customer),
    );
    const cu = await emitted(t.companyId, () =>
      send(upsertCustomerRoute, "/customers", t.key, { id: customer, last_name: "Cole" }),
    );
    expect(summary(cu)).toEqual([`customer.updated ${customer}`]);
    expect(
      await emitted(t.companyId, () =>
        send(upsertCustomerRoute, "/customers", t.key, { id: customer, last_name: "Cole" }),
      ),
    ).toEqual([]);
  });

  it("the relay: one job per delivery, the very row pg-boss's own insert writes", async () => {
    const t = await tenant();
    await addEndpoint(t.companyId);
    await addEndpoint(t.companyId, ["lead.created"]);
    const [event] = await emitted(t.companyId, () => send(upsertLeadRoute, "/leads", t.key, { name: "Jo" }));
    await relayAll();
    const deliveries = await deliveriesOf(t.companyId, event!.id);
    expect(deliveries).toHaveLength(2);
    const jobs = async (deliveryId: string) =>
      (
        await database.db.execute<{ job: Body; kept: unknown }>(
          sql`select to_jsonb(j) - 'id' - 'created_on' - 'start_after' - 'keep_until' as job,
              (keep_until - start_after)::text as kept
            from pgboss.job j where name = ${DELIVER_QUEUE} and data->>'deliveryId' = ${deliveryId}
            order by created_on`,
        )
      ).rows;
    for (const { id } of deliveries) {
      const written = await jobs(id);
      expect(written).toHaveLength(1);
      expect(written[0]!.job).toMatchObject({
        state: "created",
        data: { companyId: t.companyId, deliveryId: id },
      });
      // A job for the same delivery through pg-boss's insert: every column alike but id and times.
      await database.db.transaction((tx) => addDeliverJobs(tx, t.companyId, [id]));
      const both = await jobs(id);
      expect(both).toHaveLength(2);
      expect(both[1]).toEqual(both[0]);
    }
  });

  it("nothing is written without an enabled endpoint subscribed to the type", async () => {
    const t = await tenant();
    await addEndpoint(t.companyId, WEBHOOK_EVENT_TYPES, false);
    await addEndpoint(t.companyId, ["customer.created"]);
    const lead = (await send(upsertLeadRoute, "/leads", t.key, { name: "Quiet" })).id as string;
    await send(upsertLeadRoute, "/leads", t.key, { id: lead, name: "Still quiet" });
    expect(await events(t.companyId)).toEqual([]);
    await relayAll();
    const { rows } = await database.db.execute(
      sql`select 1 from webhook_deliveries where company_id = ${t.companyId}`,
    );
    expect(rows).toEqual([]);
  });

  it("the relay fans out to the endpoints enabled and subscribed when it runs, once", async () => {
    const t = await tenant();
    const kept = await addEndpoint(t.companyId, ["lead.created"]);
    const disabledLater = await addEndpoint(t.companyId, ["lead.created"]);
    const [event] = await emitted(t.companyId, () => send(upsertLeadRoute, "/leads", t.key, { name: "Fan" }));
    await database.db.execute(
      sql`update webhook_endpoints set enabled = false where company_id = ${t.companyId} and id = ${disabledLater}`,
    );
    // An endpoint made after the change does not get its event.
    await database.db.execute(sql`select pg_sleep(0.01)`);
    await addEndpoint(t.companyId, ["lead.created"]);
    await relayAll();
    expect((await deliveriesOf(t.companyId, event!.id)).map((d) => d.endpoint_id)).toEqual([kept]);
    const { rows } = await database.db.execute<{ relayed: boolean }>(
      sql`select relayed_at is not null as relayed from webhook_events where company_id = ${t.companyId} and id = ${event!.id}`,
    );
    expect(rows).toEqual([{ relayed: true }]);
    // Relayed once: another run finds nothing of it.
    await relayAll();
    expect(await deliveriesOf(t.companyId, event!.id)).toHaveLength(1);
  });

  it("a relay that fails leaves its batch waiting, with no delivery and no job", async () => {
    const t = await tenant();
    await addEndpoint(t.companyId, ["lead.created"]);
    await relayAll();
    const [event] = await emitted(t.companyId, () =>
      send(upsertLeadRoute, "/leads", t.key, { name: "Retry" }),
    );
    await whileInsertsFail("webhook_deliveries", t.companyId, async () => {
      await expect(relayEvents(database.db)).rejects.toThrow();
    });
    const waiting = async () =>
      (
        await database.db.execute<{ relayed: boolean; jobs: number }>(
          sql`select relayed_at is not null as relayed,
            (select count(*)::int from pgboss.job j where j.name = ${DELIVER_QUEUE}
              and j.data->>'companyId' = ${t.companyId}) as jobs
          from webhook_events where company_id = ${t.companyId} and id = ${event!.id}`,
        )
      ).rows;
    expect(await waiting()).toEqual([{ relayed: false, jobs: 0 }]);
    expect(await deliveriesOf(t.companyId, event!.id)).toEqual([]);
    await relayAll();
    expect(await waiting()).toEqual([{ relayed: true, jobs: 1 }]);
    expect(await deliveriesOf(t.companyId, event!.id)).toHaveLength(1);
  });

  it("archive, unarchive, bulk changes and their undo: one event per record changed", async () => {
    const t = await tenant();
    await addEndpoint(t.companyId);
    const leads = [
      (await send(upsertLeadRoute, "/leads", t.key, { name: "A", stage: "new" })).id as string,
      (await send(upsertLeadRoute, "/leads", t.key, { name: "B", stage: "new" })).id as string,
      (await send(upsertLeadRoute, "/leads", t.key, { name: "C", stage: "quoted" })).id as string,
    ];
    const [a, b, c] = leads as [string, string, string];
    expect(
      summary(
        await emitted(t.companyId, () => send(archiveLeadRoute, `/leads/${a}/archive`, t.key, undefined, a)),
      ),
    ).toEqual([`lead.updated ${a}`]);
    // Archiving an archived lead changes nothing.
    expect(
      await emitted(t.companyId, () => send(archiveLeadRoute, `/leads/${a}/archive`, t.key, undefined, a)),
    ).toEqual([]);
    expect(
      summary(
        await emitted(t.companyId, () =>
          send(unarchiveLeadRoute, `/leads/${a}/unarchive`, t.key, undefined, a),
        ),
      ),
    ).toEqual([`lead.updated ${a}`]);

    let bulk = "";
    const bulked = await emitted(t.companyId, async () => {
      bulk = (
        await send(bulkLeadsRoute, "/leads/bulk", t.key, {
          ids: leads,
          action: { type: "set_stage", stage: "quoted" },
        })
      ).id as string;
    });
    expect(summary(bulked)).toEqual([`lead.updated ${a}`, `lead.updated ${b}`].sort());
    expect(bulked.find((e) => e.record_id === a)!.payload.data).toEqual(
      await get(getLeadRoute, `/leads/${a}`, t.key, a),
    );
    const undone = await emitted(t.companyId, () =>
      send(undoLeadsRoute, `/leads/bulk/${bulk}/undo`, t.key, undefined, bulk),
    );
    expect(summary(undone)).toEqual([`lead.updated ${a}`, `lead.updated ${b}`].sort());
    expect(undone.find((e) => e.record_id === b)!.payload.data).toMatchObject({ stage: "new" });
    void c;

    const customers = [
      (await send(upsertCustomerRoute, "/customers", t.key, { first_name: "X" })).id as string,
      (await send(upsertCustomerRoute, "/customers", t.key, { first_name: "Y" })).id as string,
    ];
    const [x, y] = customers as [string, string];
    expect(
      summary(
        await emitted(t.companyId, () =>
          send(archiveCustomerRoute, `/customers/${x}/archive`, t.key, undefined, x),
        ),
      ),
    ).toEqual([`customer.updated ${x}`]);
    let cbulk = "";
    const cb = await emitted(t.companyId, async () => {
      cbulk = (
        await send(bulkCustomersRoute, "/customers/bulk", t.key, {
          ids: customers,
          action: { type: "archive" },
        })
      ).id as string;
    });
    expect(summary(cb)).toEqual([`customer.updated ${y}`]);
    expect(cb[0]!.payload.data).toMatchObject({ archived: true });
    const cu = await emitted(t.companyId, () =>
      send(undoCustomersRoute, `/customers/bulk/${cbulk}/undo`, t.key, undefined, cbulk),
    );
    expect(summary(cu)).toEqual([`customer.updated ${y}`]);
  });

  it("conversion: the lead's update and the new customer's create, once each, in their final state", async () => {
    const t = await tenant();
    await addEndpoint(t.companyId);
    const lead = (
      await send(upsertLeadRoute, "/leads", t.key, { name: "Conner Vert", phone: "512-555-0177" })
    ).id as string;
    let customer = "";
    const converted = await emitted(t.companyId, async () => {
      customer = ((await send(convertRoute, `/leads/${lead}/convert`, t.key, undefined, lead)).data as Body)
        .id as string;
    });
    expect(summary(converted)).toEqual([`customer.created ${customer}`, `lead.updated ${lead}`].sort());
    expect(converted.find((e) => e.type === "customer.created")!.payload.data).toEqual(
      await get(getCustomerRoute, `/customers/${customer}`, t.key, customer),
    );
    expect(converted.find((e) => e.type === "lead.updated")!.payload.data).toMatchObject({
      customer_id: customer,
    });
    // Converting again changes nothing.
    expect(
      await emitted(t.companyId, () => send(convertRoute, `/leads/${lead}/convert`, t.key, undefined, lead)),
    ).toEqual([]);
  });

  it("pins: create, update and a change of outcome; a replayed create emits nothing", async () => {
    const t = await tenant();
    await addEndpoint(t.companyId);
    const user = await createUser(database.db, t.companyId, { role: "sales_rep" });
    const notHome = await insertPinType(database.db, t.companyId, { label: "Not home" });
    const sold = await insertPinType(database.db, t.companyId, { label: "Sold" });
    let pin = "";
    const body = {
      location: [30.27, -97.74],
      pin_type_id: notHome.id,
      created_by: user.id,
      client_id: "c-1",
    };
    const created = await emitted(t.companyId, async () => {
      pin = (await send(upsertPinRoute, "/pins", t.key, body)).id as string;
    });
    // The pin as GET answers it, its visits aside.
    const pinRecord = async () => {
      const { visits, ...record } = await get(getPinRoute, `/pins/${pin}`, t.key, pin);
      expect(visits).toBeInstanceOf(Array);
      return record;
    };
    expect(summary(created)).toEqual([`pin.created ${pin}`]);
    expect(created[0]!.payload.data).toMatchObject({ id: pin, pin_type: { id: notHome.id } });
    expect(created[0]!.payload.data).toEqual(await pinRecord());
    expect(await emitted(t.companyId, () => send(upsertPinRoute, "/pins", t.key, body))).toEqual([]);
    expect(
      summary(
        await emitted(t.companyId, () => send(upsertPinRoute, "/pins", t.key, { id: pin, notes: "Dog" })),
      ),
    ).toEqual([`pin.updated ${pin}`]);
    const outcome = await emitted(t.companyId, () =>
      send(upsertPinRoute, "/pins", t.key, { id: pin, pin_type_id: sold.id }),
    );
    expect(summary(outcome)).toEqual([`pin.updated ${pin}`]);
    expect(outcome[0]!.payload.data).toMatchObject({ pin_type: { id: sold.id } });
    expect(outcome[0]!.payload.data).toEqual(await pinRecord());
    expect(
      await emitted(t.companyId, () => send(upsertPinRoute, "/pins", t.key, { id: pin, notes: "Dog" })),
    ).toEqual([]);
  });

  it("the import: one event per record written, none for unchanged ones", async () => {
    const s = randomBytes(4).toString("hex");
    const co = `co_${s}`;
    const doc = (leadName: string) => ({
      companies: [{ id: co, name: `Company ${s}`, created_at: "2026-01-01T00:00:00Z" }],
      customers: [
        { id: `cus_${s}`, company_id: co, first_name: "Carla", created_at: "2026-01-05T00:00:00Z" },
      ],
      leads: [
        { id: `lead_${s}`, company_id: co, name: leadName, created_at: "2026-03-01T00:00:00Z" },
        { id: `lead2_${s}`, company_id: co, name: "Stays", created_at: "2026-03-01T00:00:00Z" },
      ],
    });
    await importDocument(database.db, doc("Larry"));
    expect(await events(co)).toEqual([]);
    await addEndpoint(co);
    const renamed = await emitted(co, () => importDocument(database.db, doc("Larry Renamed")));
    expect(summary(renamed)).toEqual([`lead.updated lead_${s}`]);
    expect(renamed[0]!.payload.data).toMatchObject({ name: "Larry Renamed" });
    const added = await emitted(co, () =>
      importDocument(database.db, {
        ...doc("Larry Renamed"),
        customers: [
          { id: `cus2_${s}`, company_id: co, first_name: "Nina", created_at: "2026-01-05T00:00:00Z" },
        ],
      }),
    );
    expect(summary(added)).toEqual([`customer.created cus2_${s}`]);
  });

  it("a transaction that fails after the change leaves no event", async () => {
    const t = await tenant();
    await addEndpoint(t.companyId);
    const lead = (await send(upsertLeadRoute, "/leads", t.key, { name: "Before", stage: "new" }))
      .id as string;
    const before = await events(t.companyId);
    // The events are the last rows a change writes: failing there fails after the change.
    await whileInsertsFail("webhook_events", t.companyId, async () => {
      const attempts: [Route, string, Body][] = [
        [upsertLeadRoute, "/leads", { name: "Never" }],
        [upsertLeadRoute, "/leads", { id: lead, name: "Never renamed" }],
        [bulkLeadsRoute, "/leads/bulk", { ids: [lead], action: { type: "set_stage", stage: "quoted" } }],
      ];
      for (const [route, path, body] of attempts) {
        const res = await call<Body>(route, apiRequest(path, { key: t.key, body }));
        expect(res.status, res.text).toBe(500);
        expect(res.text).not.toMatch(/injected|webhook/i);
      }
    });
    expect(await events(t.companyId)).toEqual(before);
    const { rows } = await database.db.execute<{ name: string; stage: string; n: number }>(
      sql`select name, stage, (select count(*)::int from leads where company_id = ${t.companyId}) as n
        from leads where company_id = ${t.companyId} and id = ${lead}`,
    );
    expect(rows).toEqual([{ name: "Before", stage: "new", n: 1 }]);
  });
});

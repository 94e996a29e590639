import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/client";
import { auditEntries, expectNoSecretsIn } from "@/lib/testing/audit";
import { createCompany } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { deliver, pruneWebhookLog } from "./deliver";
import { addDeliverJobs, DELIVER_QUEUE } from "./queue";
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_SECONDS } from "./schedule";
import { sendWebhook } from "./send";
import { signedHeaders } from "./signing";
import { startWebhookWorker, type WebhookWorker } from "./worker";

const database = setupTestDatabase();
const allowAll = { allowAddress: () => true };
const SECRET = "whsec_" + Buffer.from("a".repeat(32)).toString("base64");
const OLD_SECRET = "whsec_" + Buffer.from("b".repeat(32)).toString("base64");

/** A local receiver: records each request; `answer` chooses the status. */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
let answer: (r: Received) => number = () => 204;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const r = { headers: req.headers, body };
      received.push(r);
      const status = answer(r);
      if (status === 302) res.setHeader("location", "http://127.0.0.1:1/elsewhere");
      res.statusCode = status;
      res.end(status === 299 ? "x".repeat(1024 * 1024) : "ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function makeEndpoint(
  db: DbOrTx,
  companyId: string,
  extra: Partial<typeof webhookEndpoints.$inferInsert> = {},
) {
  const id = `whe_${Math.random().toString(36).slice(2)}`;
  await db.insert(webhookEndpoints).values({
    companyId,
    id,
    url: receiverUrl,
    events: ["lead.created"],
    secret: SECRET,
    ...extra,
  });
  return id;
}

/** An event as a write leaves it: waiting for the relay, unless `relayed`. */
async function makeEvent(db: DbOrTx, companyId: string, data: unknown, relayed = false) {
  const [event] = await db
    .insert(webhookEvents)
    .values({
      companyId,
      type: "lead.created",
      recordType: "lead",
      recordId: "lead_1",
      payload: { type: "lead.created", timestamp: new Date().toISOString(), data },
      relayedAt: relayed ? new Date() : null,
    })
    .returning({ id: webhookEvents.id });
  return event!.id;
}

/** An event and its delivery, made by hand as the relay would. */
async function makeDelivery(
  db: DbOrTx,
  companyId: string,
  endpointId: string,
  data: unknown = { id: "lead_1" },
) {
  const event = { id: await makeEvent(db, companyId, data, true) };
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({ companyId, eventId: event!.id, endpointId })
    .returning({ id: webhookDeliveries.id });
  return { eventId: event!.id, deliveryId: delivery!.id };
}

async function deliveryRow(companyId: string, id: string) {
  const [row] = await database.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, id)));
  return row;
}

async function jobsFor(deliveryId: string) {
  const result = await database.db.execute(
    sql`select state, start_after from pgboss.job where name = ${DELIVER_QUEUE} and data->>'deliveryId' = ${deliveryId}`,
  );
  return result.rows as { state: string; start_after: Date | string }[];
}

async function waitFor(check: () => Promise<boolean>, ms = 15_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out waiting");
}

describe("retry schedule", () => {
  it("retries first within a minute, with jitter, and keeps trying for over 24 h", () => {
    const now = new Date(0);
    expect(nextAttemptAt(1, now, 0.999)!.getTime()).toBeLessThan(60_000);
    expect(nextAttemptAt(1, now, 0)!.getTime()).toBeLessThan(nextAttemptAt(1, now, 0.999)!.getTime());
    expect(nextAttemptAt(MAX_ATTEMPTS, now)).toBeNull();
    const totalSeconds = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0);
    expect(totalSeconds * 0.8).toBeGreaterThan(24 * 3600);
    // The last attempt comes after 5 days of failing, so the endpoint is disabled before it dies.
    expect(totalSeconds * 0.8 * 1000).toBeGreaterThanOrEqual(DISABLE_AFTER_MS * 0.8);
    for (let i = 1; i < RETRY_DELAYS_SECONDS.length; i++)
      expect(RETRY_DELAYS_SECONDS[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_SECONDS[i - 1]!);
  });
});

describe("signing", () => {
  it("signs with standardwebhooks; during a rotation either secret verifies", () => {
    const at = new Date();
    const body = JSON.stringify({ type: "lead.created", timestamp: at.toISOString(), data: { id: "x" } });
    const headers = signedHeaders([SECRET, OLD_SECRET], "evt_1", at, body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(OLD_SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    const other = "whsec_" + Buffer.from("c".repeat(32)).toString("base64");
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
  });
});

describe("sending", () => {
  it("refuses an address the policy refuses, at connect time", async () => {
    const result = await sendWebhook(receiverUrl, {}, "{}", { allowAddress: () => false });
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/not allowed/);
    const byName = await sendWebhook(receiverUrl.replace("127.0.0.1", "localhost"), {}, "{}", {
      allowAddress: () => false,
    });
    expect(byName.error).toMatch(/not allowed/);
  });

  it("does not follow redirects, reads a large body only in part, and times out", async () => {
    answer = () => 302;
    const redirected = await sendWebhook(receiverUrl, {}, "{}", allowAll);
    expect(redirected).toMatchObject({ ok: false, status: 302, error: "HTTP 302" });
    answer = () => 299;
    const big = await sendWebhook(receiverUrl, {}, "{}", allowAll);
    expect(big).toMatchObject({ ok: true, status: 299 });
    answer = () => 204;
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as AddressInfo).port;
    const timedOut = await sendWebhook(`http://127.0.0.1:${port}/`, {}, "{}", {
      ...allowAll,
      timeoutMs: 300,
    });
    expect(timedOut).toMatchObject({ ok: false, status: null });
    expect(timedOut.error).toMatch(/Timed out/);
    silent.closeAllConnections();
    silent.close();
  });
});

describe(`delivery through the queue on ${testEngine()}`, () => {
  it("a committed change's job is delivered, signed; a rolled-back change queues nothing", async () => {
    answer = () => 204;
    const company = await createCompany(database.db);
    const endpointId = await makeEndpoint(database.db, company.id, {
      previousSecret: OLD_SECRET,
      previousSecretExpiresAt: new Date(Date.now() + 3600_000),
    });
    const committed = await database.db.transaction(async (tx) => {
      const made = await makeDelivery(tx, company.id, endpointId, { id: "lead_committed" });
      await addDeliverJobs(tx, company.id, [made.deliveryId]);
      return made;
    });
    let rolledBack = "";
    await expect(
      database.db.transaction(async (tx) => {
        const made = await makeDelivery(tx, company.id, endpointId, { id: "lead_rolled_back" });
        rolledBack = made.deliveryId;
        await addDeliverJobs(tx, company.id, [made.deliveryId]);
        throw new Error("the change fails after its event");
      }),
    ).rejects.toThrow("the change fails");
    expect(await jobsFor(rolledBack)).toEqual([]);
    expect(await jobsFor(committed.deliveryId)).toHaveLength(1);

    const worker = await startWebhookWorker(database, { ...allowAll, pollingIntervalSeconds: 0.5 });
    try {
      await waitFor(
        async () => (await deliveryRow(company.id, committed.deliveryId))?.status === "succeeded",
      );
    } finally {
      await worker.stop();
    }
    const mine = received.filter((r) => r.headers["webhook-id"] === committed.eventId);
    expect(mine).toHaveLength(1);
    const payload = new Webhook(SECRET).verify(mine[0]!.body, mine[0]!.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: "lead.created", data: { id: "lead_committed" } });
    new Webhook(OLD_SECRET).verify(mine[0]!.body, mine[0]!.headers as Record<string, string>);
    expect(received.some((r) => r.body.includes("lead_rolled_back"))).toBe(false);
    const row = await deliveryRow(company.id, committed.deliveryId);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1, responseCode: 204, error: null });
    expect(row!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("a failure schedules a retry job within a minute; success clears failing_since", async () => {
    const company = await createCompany(database.db);
    const endpointId = await makeEndpoint(database.db, company.id);
    const { deliveryId } = await makeDelivery(database.db, company.id, endpointId);
    answer = () => 500;
    const before = Date.now();
    expect(await deliver(database.db, company.id, deliveryId, allowAll)).toBe("failed");
    const failed = await deliveryRow(company.id, deliveryId);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, responseCode: 500, error: "HTTP 500" });
    expect(failed!.nextAttemptAt!.getTime() - before).toBeLessThan(60_000);
    expect(failed!.nextAttemptAt!.getTime() - before).toBeGreaterThan(20_000);
    const jobs = await jobsFor(deliveryId);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0]!.start_after).getTime()).toBe(failed!.nextAttemptAt!.getTime());
    const [endpoint] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint!.failingSince).toBeInstanceOf(Date);

    // Not due yet: a duplicate job does nothing.
    expect(await deliver(database.db, company.id, deliveryId, allowAll)).toBe("skipped");
    answer = () => 200;
    const later = new Date(failed!.nextAttemptAt!.getTime() + 1000);
    await database.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(webhookDeliveries.id, deliveryId));
    expect(await deliver(database.db, company.id, deliveryId, { ...allowAll, now: () => later })).toBe(
      "succeeded",
    );
    const [cleared] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId));
    expect(cleared!.failingSince).toBeNull();
    answer = () => 204;
  });

  it("a job that finds an attempt's lease on looks again when it ends: a dead attempt is re-sent", async () => {
    answer = () => 204;
    const company = await createCompany(database.db);
    const endpointId = await makeEndpoint(database.db, company.id);
    const { deliveryId } = await makeDelivery(database.db, company.id, endpointId);
    // An attempt claimed it, then died before recording anything (its job already retried).
    const leaseEnd = new Date(Date.now() + 30_000);
    await database.db
      .update(webhookDeliveries)
      .set({ attempts: 1, nextAttemptAt: leaseEnd })
      .where(eq(webhookDeliveries.id, deliveryId));
    expect(await deliver(database.db, company.id, deliveryId, allowAll)).toBe("skipped");
    const jobs = await jobsFor(deliveryId);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0]!.start_after).getTime()).toBe(leaseEnd.getTime() + 1000);
    // That job, once the lease is over, sends it.
    const after = () => new Date(leaseEnd.getTime() + 1000);
    expect(await deliver(database.db, company.id, deliveryId, { ...allowAll, now: after })).toBe("succeeded");
    expect(await deliveryRow(company.id, deliveryId)).toMatchObject({ status: "succeeded", attempts: 2 });

    // A failed delivery's early duplicate job adds nothing: its retry has its own job.
    const other = await makeDelivery(database.db, company.id, endpointId);
    await database.db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 1, nextAttemptAt: leaseEnd })
      .where(eq(webhookDeliveries.id, other.deliveryId));
    expect(await deliver(database.db, company.id, other.deliveryId, allowAll)).toBe("skipped");
    expect(await jobsFor(other.deliveryId)).toEqual([]);
  });

  it("disables an endpoint whose deliveries have failed for 5 days, and gives up after the last attempt", async () => {
    const company = await createCompany(database.db);
    const endpointId = await makeEndpoint(database.db, company.id, {
      failingSince: new Date(Date.now() - DISABLE_AFTER_MS - 60_000),
    });
    const { deliveryId } = await makeDelivery(database.db, company.id, endpointId);
    await database.db
      .update(webhookDeliveries)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(webhookDeliveries.id, deliveryId));
    answer = () => 503;
    expect(await deliver(database.db, company.id, deliveryId, allowAll)).toBe("dead");
    answer = () => 204;
    const row = await deliveryRow(company.id, deliveryId);
    expect(row).toMatchObject({
      status: "dead",
      attempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
      responseCode: 503,
    });
    const [endpoint] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint!.enabled).toBe(false);
    expect(endpoint!.disabledReason).toMatch(/failed for 5 days.*HTTP 503/);
    expect(endpoint!.disabledReason).not.toContain(SECRET);
    // Nobody acted: the system's entry, in the delivery's transaction.
    const entries = await auditEntries(database.db, company.id);
    expect(entries).toMatchObject([
      {
        kind: "webhook.disabled",
        actorUserId: null,
        actorName: "System",
        targetType: "webhook_endpoint",
        targetId: endpointId,
        changes: [{ field: "enabled", from: true, to: false }],
      },
    ]);
    expectNoSecretsIn(entries, [SECRET]);
  });

  it("two workers relay each event once and send each delivery once", async () => {
    answer = () => 204;
    const company = await createCompany(database.db);
    const endpointId = await makeEndpoint(database.db, company.id);
    const made = await database.db.transaction(async (tx) => {
      const made = [];
      for (let i = 0; i < 40; i++) made.push(await makeDelivery(tx, company.id, endpointId, { n: i }));
      // Duplicate jobs too: the claim must still send each delivery once.
      await addDeliverJobs(
        tx,
        company.id,
        [...made, ...made].map((m) => m.deliveryId),
      );
      return made;
    });
    // And events as writes leave them: both workers' relays race for them.
    const waiting: string[] = [];
    for (let i = 0; i < 40; i++) waiting.push(await makeEvent(database.db, company.id, { w: i }));
    const workers: WebhookWorker[] = [];
    workers.push(await startWebhookWorker(database, { ...allowAll, pollingIntervalSeconds: 0.5 }));
    workers.push(await startWebhookWorker(database, { ...allowAll, pollingIntervalSeconds: 0.5 }));
    try {
      await waitFor(async () => {
        const rows = await database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.companyId, company.id), eq(webhookDeliveries.status, "succeeded")));
        return rows[0]!.n === 80;
      }, 30_000);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    const eventIds = new Set([...made.map((m) => m.eventId), ...waiting]);
    const got = received.filter((r) => eventIds.has(String(r.headers["webhook-id"])));
    expect(got).toHaveLength(80);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(80);
  });

  it("prunes deliveries and events older than 30 days", async () => {
    const company = await createCompany(database.db);
    const endpointId = await makeEndpoint(database.db, company.id);
    const old = await makeDelivery(database.db, company.id, endpointId);
    const fresh = await makeDelivery(database.db, company.id, endpointId);
    const longAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    await database.db
      .update(webhookEvents)
      .set({ createdAt: longAgo })
      .where(eq(webhookEvents.id, old.eventId));
    await database.db
      .update(webhookDeliveries)
      .set({ createdAt: longAgo })
      .where(eq(webhookDeliveries.id, old.deliveryId));
    await pruneWebhookLog(database.db);
    expect(await deliveryRow(company.id, old.deliveryId)).toBeUndefined();
    expect(await deliveryRow(company.id, fresh.deliveryId)).toBeDefined();
  });
});

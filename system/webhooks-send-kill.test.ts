import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import {
  engine,
  freshDatabaseWithAdmin,
  signInCookie,
  sleep,
  startServer,
  stopServer,
  VERSION,
  type FreshDatabase,
  type ServerProcess,
} from "./harness";

// A webhook send cut by a SIGKILL (the receiver has the request, the server dies before it records
// the answer) is sent again after the restart with the same webhook-id, and the delivery log then
// holds it delivered once. A real server process and a real local receiver, on both engines.

const user = { email: "send-kill-admin@example.test", password: "send kill system password" };
const SECRET = "whsec_" + Buffer.from("send-kill-test-secret-32-bytes!!").toString("base64");
const ENDPOINT_ID = "whe_send_kill_test";
// The claim's lease and the delivery job's expiry, shortened so that the re-send comes seconds
// after the restart (the product's default is 60 s for both).
const LEASE_SECONDS = 2;

let db: FreshDatabase;
let server: ServerProcess | undefined;
let receiver: http.Server;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let firstArrived!: () => void;
const firstRequest = new Promise<void>((resolve) => (firstArrived = resolve));

beforeAll(async () => {
  // The first request is read whole and never answered: the test kills the server while it waits.
  // Every later one is answered 204.
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("error", () => {}); // the held request's sender dies
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      if (received.length === 1) return firstArrived();
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  db = await freshDatabaseWithAdmin(user);
  const database = await db.open();
  try {
    const [company] = await database.db.select({ id: companies.id }).from(companies);
    await database.db.insert(webhookEndpoints).values({
      companyId: company!.id,
      id: ENDPOINT_ID,
      url: receiverUrl,
      events: ["lead.created"],
      secret: SECRET,
    });
    // pg-boss's maintenance fails a job still active past expire_seconds and retries it retry_delay later.
    // The migration's 60 s and 30–60 s become 2 s and 1 s, so the killed send comes back soon.
    await database.db.execute(
      sql`update pgboss.queue set expire_seconds = ${LEASE_SECONDS}, retry_delay = 1, retry_backoff = false
        where name = 'webhook-deliver'`,
    );
  } finally {
    await database.close();
  }
});
afterAll(async () => {
  await stopServer(server);
  await db?.drop();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const serverEnv = {
  WEBHOOKS_ALLOW_PRIVATE: "true",
  WEBHOOKS_WORKER: "on",
  WEBHOOKS_LEASE_SECONDS: String(LEASE_SECONDS),
};

async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function deliveryRows() {
  const database = await db.open();
  try {
    return await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, ENDPOINT_ID));
  } finally {
    await database.close();
  }
}

describe(`webhook send interrupted by a SIGKILL (${engine})`, () => {
  it("sends it again after the restart with the same webhook-id, and logs it delivered once", async () => {
    server = await startServer({ databaseUrl: db.url, env: serverEnv });
    let cookie = await signInCookie(server.url, user);
    const created = await fetch(`${server.url}/api/leads`, {
      method: "POST",
      headers: { ...VERSION, cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "Send Kill Lead" }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const lead = (await created.json()) as { id: string };

    await within(30_000, "the first send", firstRequest);
    server.child.kill("SIGKILL");
    expect(await server.exited).toBe("SIGKILL");
    server = undefined;

    // Sent but its answer never recorded: claimed once, still pending.
    const [interrupted, ...others] = await deliveryRows();
    expect(others).toHaveLength(0);
    expect(interrupted).toMatchObject({ status: "pending", attempts: 1, responseCode: null });

    server = await startServer({ databaseUrl: db.url, env: serverEnv });
    const deadline = Date.now() + 30_000;
    while (received.length < 2 && Date.now() < deadline) await sleep(200);
    expect(received.length, "the re-send after the restart").toBeGreaterThanOrEqual(2);

    // Recorded once the 204 is in; from then on no job sends it again.
    cookie = await signInCookie(server.url, user);
    let status = "";
    const until = Date.now() + 15_000;
    while (status !== "succeeded" && Date.now() < until) {
      const log = await fetch(`${server.url}/api/settings/webhooks/${ENDPOINT_ID}/deliveries`, {
        headers: { ...VERSION, cookie },
      });
      expect(log.status).toBe(200);
      const { data } = (await log.json()) as { data: { status: string }[] };
      expect(data).toHaveLength(1);
      status = data[0]!.status;
      if (status !== "succeeded") await sleep(200);
    }
    expect(status).toBe("succeeded");
    expect(await stopServer(server)).toBe(0);
    server = undefined;

    expect(received).toHaveLength(2);
    const webhookId = received[0]!.headers["webhook-id"];
    expect(webhookId).toMatch(/^\S+$/);
    expect(received[1]!.headers["webhook-id"]).toBe(webhookId);
    for (const request of received) {
      const payload = new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>);
      expect(payload).toMatchObject({ type: "lead.created", data: { id: lead.id } });
    }

    const rows = await deliveryRows();
    expect(rows).toEqual([
      expect.objectContaining({
        id: interrupted!.id,
        eventId: webhookId,
        status: "succeeded",
        attempts: 2,
        responseCode: 204,
        nextAttemptAt: null,
      }),
    ]);
  });
});

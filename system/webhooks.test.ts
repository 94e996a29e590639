import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
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

// Webhook delivery (issue #55) with a real server process and a real local receiver, on both
// engines: a committed event survives a SIGKILL before its delivery and is delivered after the
// restart, once, signed as Standard Webhooks says.

const user = { email: "webhooks-admin@example.test", password: "webhooks system password" };
const SECRET = "whsec_" + Buffer.from("system-test-secret-32-bytes-long").toString("base64");
const ENDPOINT_ID = "whe_system_test";

let db: FreshDatabase;
let server: ServerProcess | undefined;
let receiver: http.Server;
let receiverUrl = "";
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

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
  } finally {
    await database.close();
  }
});
afterAll(async () => {
  await stopServer(server);
  await db?.drop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const serverEnv = (worker: "on" | "off") => ({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_WORKER: worker });

describe(`webhook delivery across a crash (${engine})`, () => {
  it("delivers an event committed before a SIGKILL once the server is back, once and signed", async () => {
    // No worker: the event is committed and queued, and nothing sends it before the kill.
    server = await startServer({ databaseUrl: db.url, env: serverEnv("off") });
    const cookie = await signInCookie(server.url, user);
    const res = await fetch(`${server.url}/api/settings/webhooks/${ENDPOINT_ID}/test`, {
      method: "POST",
      headers: { ...VERSION, cookie },
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const queued = (await res.json()) as { id: string; event_id: string };
    server.child.kill("SIGKILL");
    await server.exited;
    expect(received).toHaveLength(0);

    server = await startServer({ databaseUrl: db.url, env: serverEnv("on") });
    const deadline = Date.now() + 60_000;
    while (received.length === 0 && Date.now() < deadline) await sleep(200);
    // Any duplicate would come within the next poll or two.
    await sleep(3000);
    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got!.headers["webhook-id"]).toBe(queued.event_id);
    const payload = new Webhook(SECRET).verify(got!.body, got!.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: "webhook.test", data: { endpoint_id: ENDPOINT_ID } });

    const cookieAgain = await signInCookie(server.url, user);
    const log = await fetch(`${server.url}/api/settings/webhooks/${ENDPOINT_ID}/deliveries`, {
      headers: { ...VERSION, cookie: cookieAgain },
    });
    expect(log.status).toBe(200);
    const { data } = (await log.json()) as { data: { id: string; status: string; response_code: number }[] };
    expect(data).toEqual([
      expect.objectContaining({ id: queued.id, status: "succeeded", response_code: 204 }),
    ]);

    // Resend: the same event again, with the same webhook-id.
    const resend = await fetch(
      `${server.url}/api/settings/webhooks/${ENDPOINT_ID}/deliveries/${queued.id}/resend`,
      {
        method: "POST",
        headers: { ...VERSION, cookie: cookieAgain },
      },
    );
    expect(resend.status).toBe(202);
    const until = Date.now() + 30_000;
    while (received.length < 2 && Date.now() < until) await sleep(200);
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([queued.event_id, queued.event_id]);

    expect(await stopServer(server)).toBe(0);
    server = undefined;
    const database = await db.open();
    try {
      const [row] = await database.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, queued.id), eq(webhookDeliveries.endpointId, ENDPOINT_ID)));
      expect(row).toMatchObject({ status: "succeeded", attempts: 1, responseCode: 204 });
    } finally {
      await database.close();
    }
  });
});

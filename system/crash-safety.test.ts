import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engine,
  freshDatabaseWithKey,
  inFlightRequests,
  sendRequest,
  sleep,
  startServer,
  stopServer,
  VERSION,
  type FreshDatabase,
  type ServerProcess,
  getOnNewConnection,
  waitForOutput,
} from "./harness";

// Crash safety (issue #7.4) on both engines: after SIGKILL mid-write every answered 201 is whole
// on restart; SIGTERM finishes in-flight requests, closes the database and exits 0.

let db: FreshDatabase;
let key: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  ({ db, key } = await freshDatabaseWithKey());
});
afterAll(async () => {
  await stopServer(server);
  await db?.drop();
});

interface LeadBody {
  name: string;
  email: string;
  phone: string;
  address_street1: string;
  address_city: string;
  address_state: string;
  address_zip: string;
  address_country: string;
  priority: "low" | "medium" | "high";
  projected_value: number;
  service_type: string;
  source: string;
  stage: string;
  tags: string[];
  notes: string;
  follow_up_date: string;
}

function leadBody(worker: number, n: number): LeadBody {
  const tag = `w${worker}n${n}`;
  return {
    name: `Crash ${tag}`,
    email: `crash.${tag}@example.test`,
    phone: `(5${String(worker).padStart(2, "0")}) 7${String(n).padStart(2, "0").slice(-2)}-${String(1000 + n).slice(-4)}`,
    address_street1: `${n} Worker ${worker} Street`,
    address_city: "Austin",
    address_state: "TX",
    address_zip: String(70000 + n),
    address_country: "US",
    priority: (["low", "medium", "high"] as const)[n % 3]!,
    projected_value: 100 + n + worker / 100,
    service_type: "Pest Control",
    source: `Worker ${worker}`,
    stage: "quoted",
    tags: [tag, `worker-${worker}`],
    // A few kilobytes per record, so a write spans more than one page.
    notes: `Notes of ${tag}. `.repeat(200),
    follow_up_date: `2026-0${1 + (n % 9)}-1${n % 10}`,
  };
}

/** Whether a stored lead carries every field of the body that created it. */
function expectComplete(record: Record<string, unknown>, body: LeadBody): void {
  expect(record).toMatchObject({
    name: body.name,
    email: body.email,
    phone: body.phone,
    property_street1: body.address_street1,
    property_city: body.address_city,
    property_state: body.address_state,
    property_zip: body.address_zip,
    property_country: body.address_country,
    priority: body.priority,
    projected_value: body.projected_value,
    service_type: body.service_type,
    lead_source: body.source,
    stage: body.stage,
    tags: body.tags,
    notes: body.notes,
    follow_up_date: new Date(`${body.follow_up_date}T00:00:00Z`).toISOString(),
    archived: false,
  });
}

const headers = () => ({ ...VERSION, "x-api-key": key, "content-type": "application/json" });

/** A POST whose body arrives in pieces over `pieces × delayMs`: a request that stays in flight. */
const slowPost = (url: string, body: string, pieces: number, delayMs: number, onAccepted?: () => void) =>
  sendRequest(url, { method: "POST", headers: headers(), body, pieces, delayMs, onAccepted });

describe(`crash safety of the production server (${engine})`, () => {
  it("keeps every acknowledged write, complete, after SIGKILL in the middle of concurrent writes", async () => {
    server = await startServer({ databaseUrl: db.url });
    const acknowledged = new Map<string, LeadBody>();
    const sent = new Map<string, LeadBody>();
    const unexpected: string[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const body = leadBody(w, n);
        sent.set(body.name, body);
        try {
          const res = await fetch(`${server!.url}/api/leads`, {
            method: "POST",
            headers: headers(),
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(15_000),
          });
          const json = (await res.json()) as { id: string };
          if (res.status === 201) acknowledged.set(json.id, body);
          else unexpected.push(`${res.status} ${JSON.stringify(json)}`);
        } catch {
          // The connection died with the process: this write was never acknowledged.
        }
      }
    };
    const started = Date.now();
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    while (acknowledged.size < 60 || Date.now() - started < 1500) {
      if (Date.now() - started > 90_000) throw new Error(`only ${acknowledged.size} writes in 90 s`);
      await sleep(50);
    }
    server.child.kill("SIGKILL");
    stop = true;
    expect(await server.exited).toBe("SIGKILL");
    await Promise.all(workers);
    expect(unexpected).toEqual([]);
    const killedAfter = acknowledged.size;

    server = await startServer({ databaseUrl: db.url });
    for (const [id, body] of acknowledged) {
      const res = await fetch(`${server.url}/api/leads/${id}`, { headers: headers() });
      expect(res.status, `acknowledged lead ${body.name}`).toBe(200);
      expectComplete(((await res.json()) as { data: Record<string, unknown> }).data, body);
    }
    // Every lead in the database, acknowledged or not, is whole: one that the client never heard
    // about may have committed just before the kill, but never in part.
    const list = await fetch(`${server.url}/api/leads?limit=1000`, { headers: headers() });
    const { data, pagination } = (await list.json()) as {
      data: Record<string, unknown>[];
      pagination: { total: number };
    };
    expect(pagination.total).toBeGreaterThanOrEqual(killedAfter);
    expect(pagination.total).toBeLessThanOrEqual(sent.size);
    for (const record of data) {
      const body = sent.get(String(record.name));
      expect(body, `unexpected lead ${String(record.name)}`).toBeDefined();
      expectComplete(record, body!);
    }
    console.log(
      `[system] ${engine}: ${killedAfter} acknowledged writes before SIGKILL, ${pagination.total} stored, all complete`,
    );
  });

  it("on SIGTERM finishes the requests in flight, refuses new ones, closes the database and exits 0", async () => {
    await stopServer(server);
    server = await startServer({ databaseUrl: db.url });
    const bodies = Array.from({ length: 4 }, (_, i) => leadBody(90, i));
    const inFlight = inFlightRequests(bodies.length, (i, onAccepted) =>
      slowPost(`${server!.url}/api/leads`, JSON.stringify(bodies[i]), 6, 250, onAccepted),
    );
    await inFlight.accepted; // every request is on the server; their bodies are still arriving
    server.child.kill("SIGTERM");
    await waitForOutput(server, /SIGTERM: stopping/);
    await expect(getOnNewConnection(`${server.url}/api/openapi.json`)).rejects.toThrow(/ECONNREFUSED/);

    const results = await inFlight.results;
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/SIGTERM: stopping; [1-9]\d* request\(s\) in flight/);
    expect(server.output()).toContain("database closed; stopped");

    // Restarted on the same database, the four are there.
    server = await startServer({ databaseUrl: db.url });
    for (const [i, result] of results.entries()) {
      const res = await fetch(`${server.url}/api/leads/${String(result.body.id)}`, { headers: headers() });
      expect(res.status).toBe(200);
      expectComplete(((await res.json()) as { data: Record<string, unknown> }).data, bodies[i]!);
    }
    expect(await stopServer(server)).toBe(0);
  });
});

import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiClientError } from "@/lib/query/api-client";
import type { FieldPin, SavePinBody } from "@/lib/query/pin-knocks";
import {
  enqueue,
  flushPending,
  isFinalRefusal,
  isOutcome,
  pendingOf,
  pendingOutcomeOf,
  refusalReason,
  type PendingChange,
  sendBody,
  type PendingKnock,
  type PendingOutcome,
} from "@/lib/query/pin-outbox";

describe("the offline knock queue's view of a failed send", () => {
  it("drops a knock only on a refusal that sending again would repeat", () => {
    const answered = (status: number) => new ApiClientError(status, `status ${status}`);
    for (const status of [400, 403, 404, 409, 422]) {
      expect(isFinalRefusal(answered(status)), String(status)).toBe(true);
    }
    // No answer, a cut-off answer, signed out, timed out, rate limited, server trouble: sent again.
    for (const status of [0, 401, 408, 429, 500, 502, 503]) {
      expect(isFinalRefusal(answered(status)), String(status)).toBe(false);
    }
    expect(isFinalRefusal(new TypeError("network error"))).toBe(false);
  });

  it("tells the user the refusal with each field's problem", () => {
    const invalid = new ApiClientError(400, "Invalid value for pin_type_id", "VALIDATION_ERROR", [
      { field: "pin_type_id", message: "must be a pin type id of the company" },
    ]);
    expect(refusalReason(invalid)).toBe(
      "Invalid value for pin_type_id (pin_type_id must be a pin type id of the company)",
    );
    expect(refusalReason(new ApiClientError(409, "Taken", "CONFLICT"))).toBe("Taken");
  });
});

/** A tab's localStorage and connection, as the queue sees them; a new Map is a fresh device. */
function device(store = new Map<string, string>()) {
  vi.stubGlobal("window", {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    },
    addEventListener: () => {},
    removeEventListener: () => {},
  });
  const connection = { onLine: true };
  vi.stubGlobal("navigator", connection);
  return { store, connection };
}

const outcome = (pinId: string, typeId: string, at: string): PendingOutcome => ({
  kind: "outcome",
  client_id: `c-${pinId}-${typeId}-${at}`,
  pin_id: pinId,
  pin_type_id: typeId,
  logged_at: at,
});
const knock = (at: string): PendingKnock => ({
  client_id: `k-${at}`,
  location: [1, 2],
  pin_type_id: "pt_a",
  notes: "",
  logged_at: at,
});
const pinAnswer = (id: string) => ({ id }) as FieldPin;

describe("the offline queue of knocks and outcome changes", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends each change with the time it happened as visited_at", () => {
    expect(sendBody(outcome("pin_1", "pt_b", "2026-03-02T14:05:00.000Z"))).toEqual({
      id: "pin_1",
      pin_type_id: "pt_b",
      visited_at: "2026-03-02T14:05:00.000Z",
    });
    expect(sendBody(knock("2026-03-02T14:04:00.000Z"))).toMatchObject({
      client_id: "k-2026-03-02T14:04:00.000Z",
      location: [1, 2],
      pin_type_id: "pt_a",
      notes: undefined,
      visited_at: "2026-03-02T14:04:00.000Z",
    });
  });

  it("keeps changes across a reload and counts knocks and outcome changes alike", () => {
    const { store } = device();
    enqueue("u1", knock("2026-03-02T14:04:00.000Z"));
    enqueue("u1", outcome("pin_1", "pt_b", "2026-03-02T14:05:00.000Z"));
    enqueue("u1", outcome("pin_1", "pt_c", "2026-03-02T14:06:00.000Z"));
    enqueue("u2", outcome("pin_9", "pt_b", "2026-03-02T14:07:00.000Z"));
    // A reload: the same storage, read afresh.
    device(new Map(store));
    const pending = pendingOf("u1");
    expect(pending.map((c) => c.kind ?? "knock")).toEqual(["knock", "outcome", "outcome"]);
    expect(pendingOutcomeOf(pending, "pin_1")?.pin_type_id).toBe("pt_c");
    expect(pendingOutcomeOf(pending, "pin_9")).toBeUndefined();
  });

  it("sends each change once, keeps the rest after a lost answer, and sends them again as they were", async () => {
    const { connection } = device();
    enqueue("u1", outcome("pin_1", "pt_b", "2026-03-02T14:05:00.000Z"));
    enqueue("u1", knock("2026-03-02T14:06:00.000Z"));
    const sent: unknown[] = [];
    connection.onLine = false;
    await flushPending("u1", { send: async (b) => (sent.push(b), pinAnswer("x")) });
    expect(sent).toEqual([]);

    connection.onLine = true;
    let lose = true;
    const send = async (body: SavePinBody) => {
      sent.push(body);
      if (lose) throw new TypeError("Failed to fetch");
      return pinAnswer(body.id ?? "pin_new");
    };
    await flushPending("u1", { send });
    // Both went at once; neither answer arrived, so both stay.
    expect(sent).toHaveLength(2);
    expect(pendingOf("u1")).toHaveLength(2);

    lose = false;
    // Two flushes at once (the online event and "Send now") still send each change once.
    await Promise.all([flushPending("u1", { send }), flushPending("u1", { send })]);
    expect(sent).toHaveLength(4);
    expect(sent.slice(2)).toEqual(sent.slice(0, 2));
    expect(pendingOf("u1")).toEqual([]);
  });

  it("drops a refused change and tells why; keeps one that may pass later", async () => {
    device();
    enqueue("u1", outcome("pin_gone", "pt_b", "2026-03-02T14:05:00.000Z"));
    enqueue("u1", outcome("pin_1", "pt_b", "2026-03-02T14:06:00.000Z"));
    const refused: string[] = [];
    await flushPending("u1", {
      send: async (body) => {
        if (body.id === "pin_gone") throw new ApiClientError(404, "Pin not found", "NOT_FOUND");
        throw new ApiClientError(503, "Unavailable");
      },
      onRefused: (change, reason) => refused.push(`${isOutcome(change) ? change.pin_id : "?"}: ${reason}`),
    });
    expect(refused).toEqual(["pin_gone: Pin not found"]);
    expect(pendingOf("u1").map((c) => (isOutcome(c) ? c.pin_id : "knock"))).toEqual(["pin_1"]);
  });
});

/**
 * The API as the queue meets it: a knock's client_id and an outcome change's visited_at make each
 * change once however often it is sent (POST /pins answers a repeat with the existing pin).
 */
function fakeApi({ delay = () => 1 }: { delay?: (body: SavePinBody) => number } = {}) {
  const pins = new Map<string, string>(); // client_id → pin id
  const visits = new Set<string>(); // pin id | visited_at
  const sends: SavePinBody[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const send = async (body: SavePinBody): Promise<FieldPin> => {
    sends.push(body);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    // The server makes the change at once; the answer takes a while (or may never arrive).
    const id = body.id ?? pins.get(body.client_id!) ?? `new_${pins.size + 1}`;
    if (!body.id) pins.set(body.client_id!, id);
    visits.add(`${id}|${body.visited_at}`);
    const wait = delay(body);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    else await Promise.resolve();
    inFlight--;
    return pinAnswer(id);
  };
  return { send, pins, visits, sends, mostInFlight: () => mostInFlight };
}

const minute = (n: number) => new Date(Date.UTC(2026, 2, 2, 14, n)).toISOString();

describe("sending the queue several at a time", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("sends a bounded number at once, each change once, and writes the queue once per batch", async () => {
    const { store } = device();
    for (let i = 0; i < 40; i++) enqueue("u1", knock(minute(i)));
    let writes = 0;
    const setItem = window.localStorage.setItem;
    window.localStorage.setItem = (k: string, v: string) => (writes++, setItem(k, v));
    const removeItem = window.localStorage.removeItem;
    window.localStorage.removeItem = (k: string) => (writes++, removeItem(k));
    const api = fakeApi();
    const batches: number[] = [];
    await flushPending("u1", {
      send: api.send,
      concurrency: 4,
      batchSize: 10,
      batchMs: 60_000,
      onSent: (sent) => batches.push(sent.length),
    });
    expect(api.mostInFlight()).toBe(4);
    expect(api.sends).toHaveLength(40);
    expect(new Set(api.sends.map((b) => b.client_id)).size).toBe(40);
    expect(api.pins.size).toBe(40);
    // Four batches of ten: four writes of the persisted copy and four cache updates, not forty.
    expect(batches).toEqual([10, 10, 10, 10]);
    expect(writes).toBe(4);
    expect(store.size).toBe(0);
    expect(pendingOf("u1")).toEqual([]);
  });

  it("keeps a change queued while a batch is sending, and sends it next", async () => {
    device();
    enqueue("u1", knock(minute(1)));
    enqueue("u1", knock(minute(2)));
    const api = fakeApi();
    let queued = false;
    await flushPending("u1", {
      send: (body) => {
        if (!queued) enqueue("u1", knock(minute(3)));
        queued = true;
        return api.send(body);
      },
    });
    expect(api.sends.map((b) => b.visited_at)).toEqual([minute(1), minute(2), minute(3)]);
    expect(pendingOf("u1")).toEqual([]);
  });

  it("a send asked for while a failing round is out runs once that round ends", async () => {
    device();
    enqueue("u1", knock(minute(1)));
    const api = fakeApi();
    let calls = 0;
    let again: Promise<void> | undefined;
    const options = {
      send: (body: SavePinBody) => {
        calls += 1;
        if (calls > 1) return api.send(body);
        // The connection returns while the first attempt is still waiting for its 503.
        again = flushPending("u1", options);
        return Promise.reject(new ApiClientError(503, "unavailable"));
      },
    };
    await flushPending("u1", options);
    await again;
    expect(calls).toBe(2);
    expect(api.pins.size).toBe(1);
    expect(pendingOf("u1")).toEqual([]);
  });

  it("sends one pin's outcome changes one after another, in the order they were made", async () => {
    device();
    const order = ["pt_b", "pt_c", "pt_d", "pt_e"];
    for (const [i, type] of order.entries()) {
      enqueue("u1", knock(minute(i * 2)));
      enqueue("u1", outcome("pin_1", type, minute(i * 2 + 1)));
    }
    // The first outcome change is the slowest to answer: the second must still wait for it.
    const api = fakeApi({ delay: (b) => (b.id && b.pin_type_id === "pt_b" ? 30 : 1) });
    let atOnce = 0;
    let mostAtOnce = 0;
    await flushPending("u1", {
      send: async (body) => {
        const mine = body.id === "pin_1";
        if (mine) mostAtOnce = Math.max(mostAtOnce, ++atOnce);
        try {
          return await api.send(body);
        } finally {
          if (mine) atOnce--;
        }
      },
      concurrency: 6,
    });
    expect(mostAtOnce).toBe(1);
    expect(api.sends.filter((b) => b.id === "pin_1").map((b) => b.pin_type_id)).toEqual(order);
    expect(api.mostInFlight()).toBeGreaterThan(1);
  });

  it("keeps an outcome change behind its pin's failed one, for the next round", async () => {
    device();
    enqueue("u1", outcome("pin_1", "pt_b", minute(1)));
    enqueue("u1", outcome("pin_1", "pt_c", minute(2)));
    enqueue("u1", knock(minute(3)));
    const sent: SavePinBody[] = [];
    await flushPending("u1", {
      send: async (body) => {
        sent.push(body);
        if (body.pin_type_id === "pt_b") throw new ApiClientError(503, "Unavailable");
        return pinAnswer(body.id ?? "pin_new");
      },
      concurrency: 6,
    });
    expect(sent.map((b) => b.pin_type_id)).not.toContain("pt_c");
    // The knock went beside the failed change; the second outcome change waits behind it.
    expect(sent.map((b) => b.pin_type_id)).toEqual(["pt_b", "pt_a"]);
    expect(pendingOf("u1").map((c) => c.pin_type_id)).toEqual(["pt_b", "pt_c"]);
  });

  it("a sender with no place to show a refusal sends the rest and keeps the refused change", async () => {
    device();
    enqueue("u1", outcome("pin_gone", "pt_b", minute(1)));
    enqueue("u1", knock(minute(2)));
    enqueue("u1", knock(minute(3)));
    const api = fakeApi();
    const send = (body: SavePinBody) =>
      body.id === "pin_gone"
        ? Promise.reject(new ApiClientError(404, "Pin not found", "NOT_FOUND"))
        : api.send(body);
    const refused: string[] = [];
    await flushPending("u1", { send, keepRefused: true, onRefused: (c) => refused.push(c.client_id) });
    // Sent once, not in a loop; the knocks went, the refusal waits for the map.
    expect(api.pins.size).toBe(2);
    expect(refused).toEqual([]);
    expect(pendingOf("u1").map((c) => c.pin_type_id)).toEqual(["pt_b"]);

    // The map's sender then shows it and drops it.
    await flushPending("u1", { send, onRefused: (c) => refused.push(c.client_id) });
    expect(refused).toEqual([outcome("pin_gone", "pt_b", minute(1)).client_id]);
    expect(pendingOf("u1")).toEqual([]);
  });

  it("a send asked for during a background round runs with the asker's options", async () => {
    device();
    enqueue("u1", outcome("pin_gone", "pt_b", minute(1)));
    const refused: string[] = [];
    let again: Promise<void> | undefined;
    const send = (body: SavePinBody) => {
      // The map opens while the background sender's round is out.
      again ??= flushPending("u1", { send, onRefused: (c) => refused.push(c.client_id) });
      return Promise.reject(new ApiClientError(404, `Pin ${body.id} not found`, "NOT_FOUND"));
    };
    await flushPending("u1", { send, keepRefused: true });
    await again;
    expect(refused).toHaveLength(1);
    expect(pendingOf("u1")).toEqual([]);
  });

  it("after a tab closed mid-batch, sends what was left and each change still makes one pin or visit", async () => {
    // Timers stand still: the closed tab's pending batch is never written.
    vi.useFakeTimers();
    const first = device();
    for (let i = 0; i < 12; i++) {
      enqueue("u1", i % 3 === 2 ? outcome(`pin_${i}`, "pt_b", minute(i)) : knock(minute(i)));
    }
    const api = fakeApi({ delay: () => 0 });
    // The tab closes as the server has made 7 changes: answers arrived after the last batch
    // left the queue are lost, and the sends still going never get an answer.
    let closed: Map<string, string> | undefined;
    let close = () => {};
    const closing = new Promise<void>((resolve) => (close = resolve));
    void flushPending("u1", {
      send: (body) => {
        if (api.sends.length < 7) return api.send(body);
        closed ??= new Map(first.store);
        close();
        return new Promise<FieldPin>(() => {});
      },
      concurrency: 3,
      batchSize: 4,
    });
    await closing;
    const leftAtClose = JSON.parse(closed!.get("knocks-pending:u1")!) as PendingChange[];
    // A batch had left the queue, and changes the server made were still in it.
    expect(leftAtClose.length).toBeLessThan(12);
    expect(leftAtClose.length).toBeGreaterThan(12 - 7);

    // The tab opened again: a new page with what the storage kept.
    vi.resetModules();
    device(new Map(closed));
    const reopened = await import("@/lib/query/pin-outbox");
    expect(reopened.pendingOf("u1")).toHaveLength(leftAtClose.length);
    await reopened.flushPending("u1", { send: api.send, batchSize: 4 });
    expect(reopened.pendingOf("u1")).toEqual([]);
    // Sent again, the changes the server had made add nothing: 8 knocks made 8 pins, and the
    // 12 changes 12 visits.
    expect(api.sends.length).toBe(7 + leftAtClose.length);
    expect(api.sends.length).toBeGreaterThan(12);
    expect(api.pins.size).toBe(8);
    expect(api.visits.size).toBe(12);
  });
});

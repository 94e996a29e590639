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
    expect(sent).toHaveLength(1);
    expect(pendingOf("u1")).toHaveLength(2);

    lose = false;
    // Two flushes at once (the online event and "Send now") still send each change once.
    await Promise.all([flushPending("u1", { send }), flushPending("u1", { send })]);
    expect(sent).toHaveLength(3);
    expect(sent[1]).toEqual(sent[0]);
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

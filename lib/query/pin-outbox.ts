"use client";

import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { ApiClientError } from "@/lib/query/api-client";
import {
  pinDetailKey,
  postPin,
  putPinsInCaches,
  type FieldPin,
  type PinAddress,
  type SavePinBody,
} from "@/lib/query/pin-knocks";

// Knocks and outcome changes made offline wait in localStorage per user, so a closed tab or a
// reload keeps them. Each is stamped with the time it happened, sent as visited_at, and each has a
// client_id made once: a knock's retry is answered with its existing pin, and an outcome change
// sent again with the same visited_at is recognised by its recorded visit, so a lost answer never
// makes two pins or two visits. A change the API refuses (a 4xx other than sign-in or rate limit)
// would be refused again: it leaves the queue and is shown to the user.

export interface PendingKnock {
  kind?: "knock";
  client_id: string;
  location: [number, number];
  pin_type_id: string;
  notes?: string;
  address?: Partial<PinAddress>;
  /** When it was logged (ISO 8601), sent as visited_at. */
  logged_at: string;
  /** Why the API refused it, when the user logs it again (never kept in the queue). */
  error?: string;
}

/** A new outcome (pin type) of an existing pin. */
export interface PendingOutcome {
  kind: "outcome";
  client_id: string;
  pin_id: string;
  pin_type_id: string;
  /** When the outcome was chosen (ISO 8601), sent as visited_at. */
  logged_at: string;
}

export type PendingChange = PendingKnock | PendingOutcome;

export const isOutcome = (change: PendingChange): change is PendingOutcome => change.kind === "outcome";
export const isKnock = (change: PendingChange): change is PendingKnock => change.kind !== "outcome";

/** The POST /pins body that sends a queued change. */
export function sendBody(change: PendingChange): SavePinBody {
  if (isOutcome(change)) {
    return { id: change.pin_id, pin_type_id: change.pin_type_id, visited_at: change.logged_at };
  }
  return {
    client_id: change.client_id,
    location: change.location,
    pin_type_id: change.pin_type_id,
    notes: change.notes || undefined,
    address: change.address,
    visited_at: change.logged_at,
  };
}

/** The newest queued outcome of a pin, shown on its sheet until it is sent. */
export function pendingOutcomeOf(
  pending: readonly PendingChange[],
  pinId: string,
): PendingOutcome | undefined {
  return pending.filter(isOutcome).findLast((change) => change.pin_id === pinId);
}

const storageKey = (userId: string) => `knocks-pending:${userId}`;
const listeners = new Set<() => void>();
const EMPTY: PendingChange[] = [];
// The persisted copy, parsed once per distinct string: a render reads it without parsing again.
let cache: { raw: string | null; list: PendingChange[] } = { raw: null, list: EMPTY };

function read(userId: string): PendingChange[] {
  const raw = typeof window === "undefined" ? null : window.localStorage.getItem(storageKey(userId));
  if (raw === cache.raw) return cache.list;
  let list: PendingChange[] = EMPTY;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) list = parsed as PendingChange[];
  } catch {
    // A damaged entry is dropped rather than blocking every later knock.
  }
  cache = { raw, list };
  return list;
}

function write(userId: string, list: PendingChange[]) {
  const raw = list.length === 0 ? null : JSON.stringify(list);
  if (raw === null) window.localStorage.removeItem(storageKey(userId));
  else window.localStorage.setItem(storageKey(userId), raw);
  cache = { raw, list: list.length === 0 ? EMPTY : list };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of the same user changes the list too.
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/**
 * A refusal that sending again would only repeat: a 4xx answer about the knock itself (400, 403,
 * 404, 409). No answer, a cut-off answer, a 5xx, 401 (signed out), 408 and 429 may pass later.
 */
export function isFinalRefusal(error: unknown): error is ApiClientError {
  return (
    error instanceof ApiClientError &&
    error.status >= 400 &&
    error.status < 500 &&
    ![401, 408, 429].includes(error.status)
  );
}

/** What to tell the user of a refusal: the message, with each field's problem when given. */
export function refusalReason(error: ApiClientError): string {
  const fields = error.details.map((d) => `${d.field} ${d.message}`);
  return fields.length > 0 ? `${error.message} (${fields.join("; ")})` : error.message;
}

export function newClientId(): string {
  return crypto.randomUUID();
}

const sending = new Set<string>();
// A send asked for during a round, with the options of the latest ask.
const askedAgain = new Map<string, FlushOptions>();

/** Changes sent at once: a browser opens about six connections to one server. */
export const SEND_CONCURRENCY = 6;
/** Answers taken out of the persisted queue together, and shown together (one render). */
export const BATCH_SIZE = 50;
/** The longest an answered change waits to leave the persisted queue. */
export const BATCH_MS = 250;

export interface SentChange {
  change: PendingChange;
  pin: FieldPin;
}

export interface FlushOptions {
  send: (body: SavePinBody) => Promise<FieldPin>;
  /** The changes the API accepted, a batch at a time, once they have left the queue. */
  onSent?: (sent: readonly SentChange[]) => void;
  onRefused?: (change: PendingChange, reason: string) => void;
  /**
   * Leave refused changes queued (for a sender that can show them, the map's) instead of
   * dropping them: a page with no place for the refusal must not lose it.
   */
  keepRefused?: boolean;
  concurrency?: number;
  batchSize?: number;
  batchMs?: number;
}

/**
 * Sends the user's queued changes, several at once, one round at a time per user (two hooks or a
 * click on "Send now" never send one change twice at once). Outcome changes of one pin go one
 * after another, in the order they were made. A sent or refused change leaves the queue with its
 * batch; the persisted copy keeps it until then, so a tab closed mid-batch sends it again and the
 * API matches it by its client_id or visited_at. Any other failure ends the round and keeps the
 * change, with its client_id and time, for the next one.
 */
export async function flushPending(userId: string, options: FlushOptions): Promise<void> {
  if (!navigator.onLine) return;
  if (sending.has(userId)) {
    // The connection came back (or "Send now") while a round that may fail is still out: one
    // more round runs after it, so that signal is not lost.
    askedAgain.set(userId, options);
    return;
  }
  sending.add(userId);
  try {
    let current: FlushOptions | undefined = options;
    while (current) {
      askedAgain.delete(userId);
      await sendAll(userId, current);
      current = navigator.onLine ? askedAgain.get(userId) : undefined;
    }
  } finally {
    sending.delete(userId);
    askedAgain.delete(userId);
  }
}

/** Sends rounds until the queue is empty or a round fails; changes queued meanwhile go next. */
async function sendAll(userId: string, options: FlushOptions): Promise<void> {
  // Refused changes this sender keeps: sent once per flush, not in a loop.
  const kept = new Set<string>();
  const unsent = () => read(userId).filter((c) => !kept.has(c.client_id));
  for (let list = unsent(); list.length > 0; list = unsent()) {
    if (!(await sendRound(userId, list, options, kept))) return;
  }
}

/** Sends `list`; whether every change was answered (sent or refused). */
async function sendRound(
  userId: string,
  list: readonly PendingChange[],
  {
    send,
    onSent,
    onRefused,
    keepRefused = false,
    concurrency = SEND_CONCURRENCY,
    batchSize = BATCH_SIZE,
    batchMs = BATCH_MS,
  }: FlushOptions,
  kept: Set<string>,
): Promise<boolean> {
  let stopped = false;
  let answered = new Set<string>();
  let sent: SentChange[] = [];
  let refused: { change: PendingChange; reason: string }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const commit = () => {
    clearTimeout(timer);
    timer = undefined;
    if (answered.size === 0) return;
    const gone = answered;
    const batch = { sent, refused };
    answered = new Set();
    sent = [];
    refused = [];
    // Read again: a change queued meanwhile (here or in another tab) stays.
    write(
      userId,
      read(userId).filter((c) => !gone.has(c.client_id)),
    );
    if (batch.sent.length > 0) onSent?.(batch.sent);
    for (const { change, reason } of batch.refused) onRefused?.(change, reason);
  };

  // The last send of each pin's outcome changes, which the next one of that pin waits for.
  const last = new Map<string, Promise<void>>();
  let next = 0;
  const worker = async () => {
    while (!stopped && next < list.length) {
      const change = list[next++]!;
      const key = isOutcome(change) ? `pin:${change.pin_id}` : `knock:${change.client_id}`;
      const before = last.get(key);
      let finished = () => {};
      last.set(key, new Promise<void>((resolve) => (finished = resolve)));
      try {
        await before;
        // An earlier change of the pin that failed must go first, next round.
        if (stopped) return;
        try {
          const pin = await send(sendBody(change));
          sent.push({ change, pin });
          answered.add(change.client_id);
        } catch (error) {
          if (!isFinalRefusal(error)) {
            stopped = true;
            return;
          }
          if (keepRefused) {
            kept.add(change.client_id);
            continue;
          }
          refused.push({ change, reason: refusalReason(error) });
          answered.add(change.client_id);
        }
      } finally {
        finished();
      }
      if (answered.size >= batchSize) commit();
      else if (answered.size > 0) timer ??= setTimeout(commit, batchMs);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
  } finally {
    commit();
  }
  return !stopped;
}

/** Adds a change to the user's queue (kept across reloads and closed tabs). */
export function enqueue(userId: string, change: PendingChange): void {
  const clean = isKnock(change) ? { ...change, error: undefined } : change;
  write(userId, [...read(userId), clean]);
}

/** The user's queued changes, as stored. */
export const pendingOf = (userId: string): readonly PendingChange[] => read(userId);

/** One cache update (and one render of the map) per batch of sent changes, not per change. */
function cacheSent(client: QueryClient, sent: readonly SentChange[]) {
  putPinsInCaches(
    client,
    sent.map((s) => s.pin),
  );
  for (const { change, pin } of sent) {
    if (isOutcome(change)) void client.invalidateQueries({ queryKey: pinDetailKey(pin.id) });
  }
}

/** How both senders send: to the API, each sent batch put in the caches. */
const sendingWith = (client: QueryClient) => ({
  send: postPin,
  onSent: (sent: readonly SentChange[]) => cacheSent(client, sent),
});

/** Sends on load and whenever the connection returns. */
function useSendWhenOnline(flush: (() => Promise<void>) | null) {
  useEffect(() => {
    if (!flush) return;
    void flush();
    const online = () => void flush();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [flush]);
}

/**
 * Sends the user's queue from any page but the map (which runs `useKnockOutbox`), so changes made
 * offline reach the server when the app is opened anywhere. A refusal stays queued: the map shows
 * it, with "Log again".
 */
export function useOutboxSender(userId: string | undefined, enabled: boolean) {
  const client = useQueryClient();
  const flush = useMemo(
    () =>
      userId && enabled ? () => flushPending(userId, { ...sendingWith(client), keepRefused: true }) : null,
    [userId, enabled, client],
  );
  useSendWhenOnline(flush);
}

/**
 * The user's pending knocks and outcome changes, and sending them: on load, when the connection
 * returns, and on demand. A change the API refuses leaves the queue through `onRefused`.
 */
export function useKnockOutbox(
  userId: string | undefined,
  { onRefused }: { onRefused?: (change: PendingChange, reason: string) => void } = {},
) {
  const client = useQueryClient();
  const pending = useSyncExternalStore(
    subscribe,
    () => (userId ? read(userId) : EMPTY),
    () => EMPTY,
  );
  const refused = useRef(onRefused);
  useEffect(() => {
    refused.current = onRefused;
  }, [onRefused]);

  const add = useCallback(
    (change: PendingChange) => {
      if (userId) enqueue(userId, change);
    },
    [userId],
  );

  const flush = useCallback(async () => {
    if (!userId) return;
    await flushPending(userId, {
      ...sendingWith(client),
      onRefused: (change, reason) => refused.current?.(change, reason),
    });
  }, [userId, client]);

  useSendWhenOnline(flush);

  return { pending, add, flush };
}

/** How many changes wait on this device for the user (the map's and the navigation's badge). */
export function usePendingCount(userId: string | undefined): number {
  return useSyncExternalStore(
    subscribe,
    () => (userId ? read(userId).length : 0),
    () => 0,
  );
}

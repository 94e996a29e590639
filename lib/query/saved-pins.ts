"use client";

import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { PinTypeRecord as ListedPinType } from "@/lib/schemas/pin-types";
import type { Pin } from "@/lib/schemas/pins";

// The map's pins and pin types saved in IndexedDB after each successful online load, so that
// offline the map shows the last pins it saw. Bounded: the last few filter sets, each capped.

/** Where the map was last viewed on this device (localStorage): where the rep was working. */
export const MAP_VIEW_KEY = "fieldcrm:map-view";

/** Filter sets kept (the most recently saved win). */
export const SAVED_SETS = 3;
/** Pins kept per filter set: enough for a metro area, small enough to read back quickly. */
export const MAX_SAVED_PINS = 20_000;

export interface SavedPinSet {
  key: string;
  pins: Pin[];
  total: number;
  savedAt: number;
}

interface SavedPinTypes {
  key: "types";
  types: ListedPinType[];
  savedAt: number;
}

interface OfflineDb extends DBSchema {
  pins: { key: string; value: SavedPinSet; indexes: { savedAt: number } };
  meta: { key: string; value: SavedPinTypes };
}

const DB_NAME = "fieldcrm-offline";
/** The service worker's page cache (app/sw.ts): deleted at sign-out with the saved pins. */
const PAGE_CACHE = "fieldcrm-pages";

let dbPromise: Promise<IDBPDatabase<OfflineDb>> | null = null;

function db(): Promise<IDBPDatabase<OfflineDb>> {
  dbPromise ??= openDB<OfflineDb>(DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore("pins", { keyPath: "key" }).createIndex("savedAt", "savedAt");
      database.createObjectStore("meta", { keyPath: "key" });
    },
  });
  return dbPromise;
}

function available(): boolean {
  return typeof indexedDB !== "undefined";
}

/** Saves a filter set's pins (the first MAX_SAVED_PINS) and drops the oldest sets beyond SAVED_SETS. */
export async function savePins(key: string, pins: Pin[], total: number, now = Date.now()): Promise<void> {
  if (!available()) return;
  const database = await db();
  const tx = database.transaction("pins", "readwrite");
  await tx.store.put({ key, pins: pins.slice(0, MAX_SAVED_PINS), total, savedAt: now });
  const keys = await tx.store.index("savedAt").getAllKeys();
  // Oldest first: everything before the last SAVED_SETS goes.
  for (const old of keys.slice(0, Math.max(keys.length - SAVED_SETS, 0))) await tx.store.delete(old);
  await tx.done;
}

/** The saved pins of a filter set, or null. */
export async function loadPins(key: string): Promise<SavedPinSet | null> {
  if (!available()) return null;
  return (await (await db()).get("pins", key)) ?? null;
}

export async function savePinTypes(types: ListedPinType[], now = Date.now()): Promise<void> {
  if (!available()) return;
  await (await db()).put("meta", { key: "types", types, savedAt: now });
}

export async function loadPinTypes(): Promise<ListedPinType[] | null> {
  if (!available()) return null;
  return (await (await db()).get("meta", "types"))?.types ?? null;
}

/**
 * Deletes what the browser keeps of the signed-in user's data for offline use: the saved pins,
 * the map's last viewed area and the service worker's saved map page. Called at sign-out, before
 * the next person signs in.
 */
export async function clearOfflineData(): Promise<void> {
  try {
    window.localStorage.removeItem(MAP_VIEW_KEY);
  } catch {
    // Storage blocked: nothing was kept there either.
  }
  const jobs: Promise<unknown>[] = [];
  if (available()) {
    jobs.push(
      db().then(async (database) => {
        await database.clear("pins");
        await database.clear("meta");
      }),
    );
  }
  if (typeof caches !== "undefined") jobs.push(caches.delete(PAGE_CACHE));
  await Promise.allSettled(jobs);
}

// Whether the map shows saved pins, and from when: the map page's note reads it.
let offlineSince: number | null = null;
const listeners = new Set<() => void>();

export function setShowingSavedPins(savedAt: number | null): void {
  if (offlineSince === savedAt) return;
  offlineSince = savedAt;
  for (const listener of listeners) listener();
}

export const savedPinsStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  getSnapshot: (): number | null => offlineSince,
  getServerSnapshot: (): number | null => null,
};

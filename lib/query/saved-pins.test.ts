import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Pin } from "@/lib/schemas/pins";
import {
  clearOfflineData,
  loadPins,
  MAP_VIEW_KEY,
  loadPinTypes,
  MAX_SAVED_PINS,
  SAVED_SETS,
  savePins,
  savePinTypes,
} from "./saved-pins";

// Only the id matters to the store; the rest of a pin is carried as is.
const pins = (count: number, prefix = "pin"): Pin[] =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}_${i}` }) as unknown as Pin);

describe("saved pins (IndexedDB)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("saves a filter set's pins and reads them back with the time they were saved", async () => {
    await savePins("set-a", pins(3), 3, 1_000);
    const saved = await loadPins("set-a");
    expect(saved?.pins.map((p) => p.id)).toEqual(["pin_0", "pin_1", "pin_2"]);
    expect(saved?.total).toBe(3);
    expect(saved?.savedAt).toBe(1_000);
    expect(await loadPins("never-saved")).toBeNull();
  });

  it("keeps only the most recently saved filter sets", async () => {
    const keys = Array.from({ length: SAVED_SETS + 2 }, (_, i) => `bounded-${i}`);
    for (const [i, key] of keys.entries()) await savePins(key, pins(1, key), 1, 10_000 + i);
    const kept = await Promise.all(keys.map(async (key) => (await loadPins(key)) !== null));
    expect(kept).toEqual(keys.map((_, i) => i >= keys.length - SAVED_SETS));
  });

  it("caps the pins saved per set, keeping the API's total", async () => {
    await savePins("big", pins(MAX_SAVED_PINS + 5), MAX_SAVED_PINS + 5, 50_000);
    const saved = await loadPins("big");
    expect(saved?.pins).toHaveLength(MAX_SAVED_PINS);
    expect(saved?.total).toBe(MAX_SAVED_PINS + 5);
  });

  it("sign-out's clear deletes the saved pins and pin types", async () => {
    await savePins("mine", pins(2), 2, 60_000);
    await savePinTypes([{ id: "pt_1", label: "Sold", color: "#00f", position: 0 }], 60_000);
    expect(await loadPinTypes()).toHaveLength(1);
    await clearOfflineData();
    expect(await loadPins("mine")).toBeNull();
    expect(await loadPinTypes()).toBeNull();
  });

  it("sign-out's clear forgets the map's last viewed area", async () => {
    const storage = new Map<string, string>([
      [MAP_VIEW_KEY, JSON.stringify({ center: [30.27, -97.74], zoom: 15 })],
      ["other", "kept"],
    ]);
    vi.stubGlobal("window", {
      localStorage: { removeItem: (key: string) => void storage.delete(key) },
    });
    await clearOfflineData();
    expect([...storage.keys()]).toEqual(["other"]);
  });

  it("sign-out's clear still clears the saved pins when storage is blocked", async () => {
    vi.stubGlobal("window", {
      get localStorage(): Storage {
        throw new DOMException("blocked", "SecurityError");
      },
    });
    await savePins("mine", pins(1), 1, 60_000);
    await clearOfflineData();
    expect(await loadPins("mine")).toBeNull();
  });
});

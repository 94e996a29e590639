"use client";

import { useSyncExternalStore } from "react";
import { savedPinsStore } from "@/lib/query/saved-pins";

/** "Offline: showing saved pins from …" while the map shows the pins saved in IndexedDB. */
export function SavedPinsNote() {
  const savedAt = useSyncExternalStore(
    savedPinsStore.subscribe,
    savedPinsStore.getSnapshot,
    savedPinsStore.getServerSnapshot,
  );
  if (savedAt === null) return null;
  const when = new Date(savedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return (
    <p
      role="status"
      data-testid="saved-pins-note"
      className="mb-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-1.5 text-sm text-amber-900"
    >
      Offline: showing saved pins from {when}
    </p>
  );
}

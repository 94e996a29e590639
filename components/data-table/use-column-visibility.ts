"use client";

import type { Updater, VisibilityState } from "@tanstack/react-table";
import { useCallback, useMemo, useState, useSyncExternalStore } from "react";

// Shown columns, remembered per table in localStorage (`storageKey`), else for the page's life.
// useSyncExternalStore renders the default on server and first client render: no hydration mismatch.
const PREFIX = "fcrm:columns:";
const memory = new Map<string, string>();
const listeners = new Set<() => void>();

function read(key: string): string | null {
  if (memory.has(key)) return memory.get(key)!;
  try {
    return window.localStorage.getItem(PREFIX + key);
  } catch {
    return null; // storage disabled (private mode, policy): fall back to memory only
  }
}

function write(key: string, value: string) {
  memory.set(key, value);
  try {
    window.localStorage.setItem(PREFIX + key, value);
  } catch {
    // storage full or disabled: the choice still holds for this page
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed the choice.
  const onStorage = (event: StorageEvent) => {
    if (event.key?.startsWith(PREFIX)) {
      memory.delete(event.key.slice(PREFIX.length));
      listener();
    }
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function useColumnVisibility(
  storageKey: string | undefined,
  defaults: VisibilityState = {},
): [VisibilityState, (updater: Updater<VisibilityState>) => void] {
  const key = storageKey ?? "";
  const defaultsJson = JSON.stringify(defaults);
  const persisted = useSyncExternalStore(
    subscribe,
    () => (key ? read(key) : null),
    () => null,
  );
  // No storage key: this table's own state, for the page's lifetime.
  const [local, setLocal] = useState<string | null>(null);
  const stored = key ? persisted : local;

  const visibility = useMemo<VisibilityState>(() => {
    const base = JSON.parse(defaultsJson) as VisibilityState;
    if (!stored) return base;
    try {
      const parsed = JSON.parse(stored) as unknown;
      if (parsed && typeof parsed === "object") return { ...base, ...(parsed as VisibilityState) };
    } catch {
      // a hand-edited or old value: ignore it
    }
    return base;
  }, [stored, defaultsJson]);

  const setVisibility = useCallback(
    (updater: Updater<VisibilityState>) => {
      const next = typeof updater === "function" ? updater(visibility) : updater;
      if (key) write(key, JSON.stringify(next));
      else setLocal(JSON.stringify(next));
    },
    [key, visibility],
  );

  return [visibility, setVisibility];
}

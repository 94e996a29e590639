"use client";

import { useCallback, useSyncExternalStore } from "react";

/** Tailwind's `sm` breakpoint and up: anything wider than a phone held upright. */
export const SM_UP = "(min-width: 640px)";

/**
 * Whether a CSS media query matches now, following changes (a rotated phone, a resized window).
 * The server, and the first client render that hydrates its HTML, take `serverValue`.
 */
export function useMediaQuery(query: string, serverValue: boolean): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}

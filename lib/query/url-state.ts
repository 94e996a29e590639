"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useSyncExternalStore } from "react";

/**
 * View state in the URL, so a reload or shared link shows the same view. Writes use the History API
 * (router.replace refetches server components); reads use `window.location`, as useSearchParams lags.
 */
export type UrlStateDefaults = Record<string, string>;
export type UrlStatePatch<D extends UrlStateDefaults> = Partial<
  Record<keyof D, string | number | boolean | null>
>;

export interface SetUrlStateOptions {
  /**
   * "push" (the default) adds a history entry, so Back and Forward walk the views; "replace"
   * corrects the current one (a page size that moves the page, say).
   */
  history?: "push" | "replace";
}

// Next.js's patched pushState and replaceState fire no event; our own writes notify here.
const listeners = new Set<() => void>();

// Whether this task already pushed an entry: a second change of the same event joins it.
let pushedThisTask = false;

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", listener);
  };
}

export function useUrlState<D extends UrlStateDefaults>(
  defaults: D,
): [Record<keyof D, string>, (patch: UrlStatePatch<D>, options?: SetUrlStateOptions) => boolean] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  // Callers usually pass an object literal; key on its content so the memo below is stable.
  const defaultsKey = JSON.stringify(defaults);

  // While Next.js renders a link to this page the address bar still shows the page left: then,
  // and on the server, the router's search params are the view's.
  const routed = searchParams.toString();
  const current = useSyncExternalStore(
    subscribe,
    () => (window.location.pathname === pathname ? window.location.search : routed),
    () => routed,
  );

  const values = useMemo(() => {
    const parsed = JSON.parse(defaultsKey) as D;
    const params = new URLSearchParams(current);
    const out = {} as Record<keyof D, string>;
    for (const key of Object.keys(parsed) as (keyof D & string)[]) {
      out[key] = params.get(key) ?? parsed[key]!;
    }
    return out;
  }, [current, defaultsKey]);

  const setValues = useCallback(
    (patch: UrlStatePatch<D>, options: SetUrlStateOptions = {}) => {
      const parsed = JSON.parse(defaultsKey) as D;
      // The live URL, not the rendered one: two updates in one event must not overwrite each
      // other with a stale copy.
      const params = new URLSearchParams(window.location.search);
      for (const [key, raw] of Object.entries(patch)) {
        const value = raw === null || raw === undefined ? null : String(raw);
        if (value === null || value === parsed[key]) params.delete(key);
        else params.set(key, value);
      }
      const query = params.toString();
      const url = `${pathname}${query ? `?${query}` : ""}`;
      if (url === `${window.location.pathname}${window.location.search}`) return false;
      if (options.history === "replace" || pushedThisTask) window.history.replaceState(null, "", url);
      else {
        window.history.pushState(null, "", url);
        pushedThisTask = true;
        queueMicrotask(() => (pushedThisTask = false));
      }
      for (const listener of listeners) listener();
      return true;
    },
    [pathname, defaultsKey],
  );

  return [values, setValues];
}

/** A whole number from the URL within [min, max], or the fallback when it is missing or bad. */
export function parseIntParam(value: string | null | undefined, fallback: number, min = 1, max = Infinity) {
  if (!value || !/^\d+$/.test(value)) return fallback;
  const n = Number(value);
  return n >= min && n <= max ? n : fallback;
}

/** "true"/"false" from the URL. */
export function parseBoolParam(value: string | null | undefined, fallback = false): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  return fallback;
}

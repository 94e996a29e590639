"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";

/**
 * View state (page, page size, filters, search) kept in the URL's search params, so a reload or
 * a shared link shows the same view.
 *
 * Every key has a string default; a value equal to its default is left out of the URL so links
 * stay short. Each change is a history entry (Back returns to the previous view). Updates go
 * through the native History API, which Next.js folds into its router:
 * `useSearchParams` re-renders, but no server round trip happens (router.replace would refetch
 * the page's server components on every keystroke).
 *
 *   const [view, setView] = useUrlState({ page: "1", search: "", archived: "false" });
 *   setView({ search: "smith", page: null });  // null = back to the default; true if the URL changed
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

export function useUrlState<D extends UrlStateDefaults>(
  defaults: D,
): [Record<keyof D, string>, (patch: UrlStatePatch<D>, options?: SetUrlStateOptions) => boolean] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  // Callers usually pass an object literal; key on its content so the memo below is stable.
  const defaultsKey = JSON.stringify(defaults);

  // Next.js applies a History API change to useSearchParams in a transition, a moment later.
  // Until then the new query is shown from here, so a controlled checkbox or select does not
  // flick back for a frame. Any change of the real search params (ours arriving, or Back)
  // ends the override.
  const live = searchParams.toString();
  const [pending, setPending] = useState<{ query: string; base: string } | null>(null);
  if (pending && pending.base !== live) setPending(null);
  const current = pending && pending.base === live ? pending.query : live;

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
      // Read the live URL, not the rendered searchParams: two updates in one event must not
      // overwrite each other with a stale copy.
      const params = new URLSearchParams(window.location.search);
      for (const [key, raw] of Object.entries(patch)) {
        const value = raw === null || raw === undefined ? null : String(raw);
        if (value === null || value === parsed[key]) params.delete(key);
        else params.set(key, value);
      }
      const query = params.toString();
      const url = `${pathname}${query ? `?${query}` : ""}`;
      if (url === `${window.location.pathname}${window.location.search}`) return false;
      setPending({ query, base: live });
      if (options.history === "replace") window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
      return true;
    },
    [pathname, defaultsKey, live],
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

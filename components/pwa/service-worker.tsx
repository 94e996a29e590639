"use client";

import { SerwistProvider } from "@serwist/turbopack/react";
import { useEffect, useState } from "react";

/** Where Serwist serves the worker built from app/sw.ts (app/serwist/[path]/route.ts). */
export const SW_URL = "/serwist/sw.js";
/** The worker controls the map page only: the desk pages stay plain network pages. */
export const SW_SCOPE = "/map";
/**
 * Automated browsers (navigator.webdriver) get no worker unless a test opts in with this
 * localStorage key: a worker between the page and the network would change what other end-to-end
 * tests see (request routing, caches), while e2e/offline.spec.ts tests the worker itself.
 */
export const SW_TEST_OPT_IN = "fieldcrm:service-worker";

function workerWanted(): boolean {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return false;
  if (!navigator.webdriver) return true;
  try {
    return window.localStorage.getItem(SW_TEST_OPT_IN) === "1";
  } catch {
    return false;
  }
}

/**
 * Registers the field app's service worker (Serwist) and, once it is active, asks it to save
 * this page and the code it already loaded: the first visit loads before the worker controls the
 * page, and the map must reload offline after one online visit.
 */
export function ServiceWorker({ children }: { children?: React.ReactNode }) {
  const [enabled] = useState(workerWanted);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    const saveLoaded = async () => {
      const registration = await navigator.serviceWorker.ready;
      if (cancelled || !registration.active) return;
      const loaded = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const origin = window.location.origin;
      const urls: (string | [string, RequestInit])[] = [
        window.location.href,
        ...loaded.map((entry) => entry.name).filter((url) => url.startsWith(`${origin}/_next/static/`)),
        // Tiles already on screen, asked for as the map's <img> asks (no CORS).
        ...loaded
          .filter((entry) => entry.initiatorType === "img" && !entry.name.startsWith(origin))
          .map((entry): [string, RequestInit] => [entry.name, { mode: "no-cors" }]),
      ];
      registration.active.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: urls } });
    };
    void saveLoaded();
    // Tiles that loaded after the worker was ready but before it took the page over passed it by:
    // once it controls the page, what has loaded is saved again (cached entries are kept).
    const taken = () => void saveLoaded();
    navigator.serviceWorker.addEventListener("controllerchange", taken);
    return () => {
      cancelled = true;
      navigator.serviceWorker.removeEventListener("controllerchange", taken);
    };
  }, [enabled]);

  return (
    <SerwistProvider
      swUrl={SW_URL}
      disable={!enabled}
      options={{ scope: SW_SCOPE }}
      // Views of the map change the URL as the user pans: saving each would refetch the page.
      cacheOnNavigation={false}
      // The outbox sends queued changes when the connection returns; a reload would interrupt it.
      reloadOnOnline={false}
    >
      {children}
    </SerwistProvider>
  );
}

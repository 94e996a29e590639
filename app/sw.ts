/// <reference lib="webworker" />
import {
  CacheableResponsePlugin,
  CacheFirst,
  ExpirationPlugin,
  NetworkFirst,
  Serwist,
  type PrecacheEntry,
  type SerwistGlobalConfig,
} from "serwist";

// The field app's service worker (registered by components/pwa/service-worker.tsx, scope /map).
// What it caches, and what it never does:
// - /api/* has no route: API answers carry the session and must be fresh, so they always go to
//   the network untouched (offline, the pins come from IndexedDB instead: lib/query/saved-pins.ts);
// - the map page's HTML: network first, the saved copy only when the network fails;
// - Next's hashed static files: cache first (their names change with their content);
// - map tiles the user has seen: cache first, bounded by count and age.
// Sign-out deletes the page cache (lib/query/saved-pins.ts, clearOfflineData).

declare global {
  interface WorkerGlobalScope extends SerwistGlobalConfig {
    __SW_MANIFEST: (PrecacheEntry | string)[] | undefined;
  }
}

declare const self: ServiceWorkerGlobalScope;

/** Cache names shared with the page (sign-out deletes PAGE_CACHE). */
const PAGE_CACHE = "fieldcrm-pages";

const serwist = new Serwist({
  precacheEntries: self.__SW_MANIFEST,
  skipWaiting: true,
  clientsClaim: true,
  navigationPreload: false,
  runtimeCaching: [
    {
      // The map page itself: a navigation, or the page's own request to save it (CACHE_URLS)
      // after the first visit, which loaded before the worker took control.
      matcher: ({ request, url, sameOrigin }) =>
        sameOrigin &&
        url.pathname === "/map" &&
        !url.searchParams.has("_rsc") &&
        !request.headers.has("RSC") &&
        (request.mode === "navigate" || request.destination === ""),
      handler: new NetworkFirst({
        cacheName: PAGE_CACHE,
        // Any /map?… view: the page reads its view from the URL in the browser.
        matchOptions: { ignoreSearch: true },
        plugins: [
          // Only real pages: never the redirect to sign-in (status 0, opaque) or an error page.
          new CacheableResponsePlugin({ statuses: [200] }),
          new ExpirationPlugin({ maxEntries: 4 }),
        ],
      }),
    },
    {
      matcher: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/_next/static/"),
      handler: new CacheFirst({
        cacheName: "fieldcrm-static",
        plugins: [
          new CacheableResponsePlugin({ statuses: [200] }),
          new ExpirationPlugin({
            maxEntries: 300,
            maxAgeSeconds: 30 * 24 * 60 * 60,
            maxAgeFrom: "last-used",
          }),
        ],
      }),
    },
    {
      // Tiles: the only cross-origin images the page may load (the CSP's img-src names the tile
      // host); no-cors requests are the page's saved tiles (CACHE_URLS). Leaflet loads tiles without
      // CORS, so they are opaque (status 0); the bound keeps their quota cost in check and a quota
      // error empties this cache rather than failing.
      matcher: ({ request, sameOrigin }) =>
        !sameOrigin && (request.destination === "image" || request.mode === "no-cors"),
      handler: new CacheFirst({
        cacheName: "fieldcrm-tiles",
        plugins: [
          new CacheableResponsePlugin({ statuses: [0, 200] }),
          new ExpirationPlugin({
            maxEntries: 1000,
            maxAgeSeconds: 30 * 24 * 60 * 60,
            maxAgeFrom: "last-used",
            purgeOnQuotaError: true,
          }),
        ],
      }),
    },
  ],
});

serwist.addEventListeners();

import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, signIn, signOut } from "./helpers";

// The field app offline (issue #52): the map page, its code and its last pins load without a
// network after one online visit, through the Serwist service worker (app/sw.ts) and the pins
// saved in IndexedDB (lib/query/saved-pins.ts). Automated browsers get the worker only when they
// opt in (components/pwa/service-worker.tsx), as this file does.

const NOTES_DIR = "/work/notes";

test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => window.localStorage.setItem("fieldcrm:service-worker", "1"));
});

async function loadedPins(page: Page): Promise<number> {
  const map = page.getByTestId("pin-map");
  await expect(map).toHaveAttribute("data-loading", "false", { timeout: 60_000 });
  return Number(await map.getAttribute("data-rendered-pins"));
}

/** The worker controls the page and has saved it; the pins are saved in IndexedDB. */
async function waitUntilSavedForOffline(page: Page) {
  // A fresh context installs the worker anew, precaching the build's code first: on a busy
  // machine that alone can take more than half a minute.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 90_000 });
  await page.waitForFunction(
    async () => Boolean(await caches.match("/map", { ignoreSearch: true, cacheName: "fieldcrm-pages" })),
    null,
    { timeout: 30_000, polling: 250 },
  );
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open("fieldcrm-offline");
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("pins")) return resolve((db.close(), false));
          const count = db.transaction("pins").objectStore("pins").count();
          count.onsuccess = () => resolve((db.close(), count.result > 0));
          count.onerror = () => resolve((db.close(), false));
        };
      }),
    null,
    { timeout: 30_000, polling: 250 },
  );
}

async function shoot(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: `${NOTES_DIR}/s-pwa-${name}-${size.width}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("the manifest is served and names the map as the installed app's start", async ({ page }) => {
  const response = await page.request.get("/manifest.webmanifest");
  expect(response.status()).toBe(200);
  const manifest = (await response.json()) as {
    name: string;
    start_url: string;
    display: string;
    icons: { src: string; type: string }[];
  };
  expect(manifest.name).toBe("FieldCRM");
  expect(manifest.start_url).toBe("/map");
  expect(manifest.display).toBe("standalone");
  expect(manifest.icons.length).toBeGreaterThan(0);
  for (const icon of manifest.icons) expect((await page.request.get(icon.src)).status()).toBe(200);

  await signIn(page, "technician", { next: false });
  await page.goto("/map");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
});

test("reloading /map offline shows the page and the saved pins, not the browser's error page", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "technician", { next: false });
  await page.goto("/map");
  await expect(page.getByRole("heading", { level: 1, name: "Map" })).toBeVisible();
  const online = await loadedPins(page);
  expect(online, "the demo data has pins").toBeGreaterThan(0);

  // Serwist's worker is registered for the map and active.
  const registration = await page.evaluate(async () => {
    const ready = await navigator.serviceWorker.ready;
    return { scope: ready.scope, script: ready.active?.scriptURL ?? "" };
  });
  expect(new URL(registration.scope).pathname).toBe("/map");
  expect(new URL(registration.script).pathname).toBe("/serwist/sw.js");
  await waitUntilSavedForOffline(page);
  await expect(page.getByTestId("saved-pins-note")).toHaveCount(0);

  await context.setOffline(true);
  await page.reload();
  await expect(page).toHaveURL(/\/map/);
  await expect(page.getByRole("heading", { level: 1, name: "Map" })).toBeVisible();
  expect(await loadedPins(page)).toBe(online);
  await expect(page.getByTestId("saved-pins-note")).toContainText("Offline: showing saved pins from");
  await expectAccessible(page);
  await shoot(page, "offline-map");

  // API answers are never cached: they carry the session and must be fresh.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });
  expect(cached.length).toBeGreaterThan(0);
  expect(cached.filter((url) => new URL(url).pathname.startsWith("/api/"))).toEqual([]);

  // Back online, signing out deletes the saved map page and the saved pins.
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByTestId("saved-pins-note")).toHaveCount(0);
  expect(await loadedPins(page)).toBe(online);
  // The last viewed area says where the rep was working: it goes at sign-out too.
  expect(await page.evaluate(() => window.localStorage.getItem("fieldcrm:map-view"))).not.toBeNull();
  await signOut(page);
  const left = await page.evaluate(async () => {
    const mapView = window.localStorage.getItem("fieldcrm:map-view");
    const pageCache = await caches.has("fieldcrm-pages");
    const savedPins = await new Promise<number>((resolve) => {
      const open = indexedDB.open("fieldcrm-offline");
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains("pins")) return resolve((db.close(), 0));
        const count = db.transaction("pins").objectStore("pins").count();
        count.onsuccess = () => resolve((db.close(), count.result));
      };
      open.onerror = () => resolve(-1);
    });
    return { mapView, pageCache, savedPins };
  });
  expect(left).toEqual({ mapView: null, pageCache: false, savedPins: 0 });
});

// A 1×1 PNG: the machines running the tests have no internet, so the tile host is answered here.
const TILE_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const isTile = (url: URL) =>
  /\/\d+\/\d+\/\d+\.png$/.test(url.pathname) && !url.pathname.startsWith("/_next/");

test("map tiles seen online show offline, from the worker's bounded tile cache", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "technician", { next: false });
  await page.goto("/map");
  await loadedPins(page);
  // The worker is installed first, with no route in the way: a context route set while the worker
  // registered sometimes kept it from ever taking the page over.
  await waitUntilSavedForOffline(page);
  // context.route also answers the service worker's own requests; the reload asks for the tiles
  // through the worker, which saves them.
  await context.route(isTile, (route) =>
    route.fulfill({ status: 200, contentType: "image/png", body: TILE_PNG }),
  );
  await page.reload();
  await loadedPins(page);
  await page.waitForFunction(
    async () => (await (await caches.open("fieldcrm-tiles")).keys()).length > 0,
    null,
    { timeout: 30_000, polling: 250 },
  );
  const tilesOnline = await page.locator("img.leaflet-tile-loaded").count();
  expect(tilesOnline).toBeGreaterThan(0);

  // Offline, with nothing answering the tile host: the tiles come from the worker's cache.
  await context.unroute(isTile);
  await context.setOffline(true);
  await page.reload();
  await loadedPins(page);
  // Without the cache every tile fails offline. (A tile Leaflet dropped mid-load on the first
  // visit was never saved, so the map's "No map tiles" hint may still show for it.)
  await expect(page.locator("img.leaflet-tile-loaded").first()).toBeVisible();
});

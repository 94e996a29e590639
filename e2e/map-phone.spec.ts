import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { API_HEADERS, atRest, expectAccessible, signIn } from "./helpers";

// The map on a phone held upright: it fills the screen below the app bar, the filters wait in a
// sheet, "Locate me" centres on the user, and the knock sheet leaves the marker in sight. The map
// publishes its centre and zoom on the Leaflet element (data-center, data-zoom).

const PHONE = { width: 390, height: 844 };
/** Where the review screenshots go: SHOTS_DIR, else beside the other e2e screenshots. */
const SHOTS = process.env.SHOTS_DIR ?? path.join("test-results", "screenshots");

test.use({ viewport: PHONE, permissions: ["geolocation"] });

interface ApiPin {
  id: string;
  location: [number, number];
  pin_type: { id: string; label: string };
}

async function apiPins(page: Page, params: Record<string, string> = {}) {
  const response = await page.request.get("/api/pins", { headers: API_HEADERS, params });
  expect(response.status()).toBe(200);
  return (await response.json()) as { data: ApiPin[]; pagination: { total: number } };
}

const mapBox = (page: Page) => page.getByTestId("pin-map");
const leaflet = (page: Page) => mapBox(page).locator(".leaflet-container");

async function mapLoaded(page: Page) {
  await expect(mapBox(page)).toHaveAttribute("data-loading", "false", { timeout: 60_000 });
}

async function center(page: Page): Promise<{ lat: number; lng: number; zoom: number }> {
  const [lat, lng] = ((await leaflet(page).getAttribute("data-center")) ?? "").split(",").map(Number);
  return { lat: lat!, lng: lng!, zoom: Number(await leaflet(page).getAttribute("data-zoom")) };
}

async function expectCentredOn(page: Page, at: { latitude: number; longitude: number }) {
  const off = async () => {
    const c = await center(page);
    return Math.max(Math.abs(c.lat - at.latitude), Math.abs(c.lng - at.longitude));
  };
  await expect.poll(off).toBeLessThan(0.0005);
  // And it stays: a zoom animation ending (250 ms in Leaflet) must not take the view back.
  await page.waitForTimeout(500);
  expect(await off()).toBeLessThan(0.0005);
}

/** The bottom of the app bar: the map's room starts there. */
async function barBottom(page: Page): Promise<number> {
  const bar = await page.locator("header").first().boundingBox();
  return bar!.y + bar!.height;
}

/** Screenshots for the lead's review at 1440 and 390 px, light and dark. */
async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of [{ width: 1440, height: 900 }, PHONE]) {
      await page.setViewportSize(size);
      await atRest(page);
      await page.screenshot({ path: path.join(SHOTS, `map-phone-${name}-${size.width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  if (original) await page.setViewportSize(original);
}

test("on a phone the map fills the screen, filters sit in a sheet, and Locate me centres", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "sales_rep", { next: false });
  const { data: pins, pagination } = await apiPins(page, { limit: "200" });
  const first = pins[0]!;
  const other = pins.find(
    (p) => Math.abs(p.location[0] - first.location[0]) + Math.abs(p.location[1] - first.location[1]) > 0.01,
  )!;
  expect(other, "the demo pins are spread out").toBeDefined();
  const here = { latitude: first.location[0] + 0.0004, longitude: first.location[1] - 0.0003 };
  await context.setGeolocation(here);

  // The first visit, with location already allowed: the map opens on the user, a neighbourhood.
  await page.goto("/map");
  await mapLoaded(page);
  await expectCentredOn(page, here);
  expect((await center(page)).zoom).toBeGreaterThanOrEqual(15);

  // The map takes the screen below the app bar; the filters do not take its top.
  const top = await barBottom(page);
  const box = (await mapBox(page).boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(0.9 * (PHONE.height - top));
  expect(box.y).toBeLessThanOrEqual(top + 1);
  await expect(page.getByLabel("Pin type")).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, "map");

  // The filters sheet: a choice applies at once, the button counts the active filters.
  const filtersButton = page.getByRole("button", { name: /^Filters/ });
  await expect(filtersButton).toHaveAttribute("data-count", "0");
  await filtersButton.click();
  const sheet = page.getByTestId("filters-sheet");
  await expect(sheet).toBeVisible();
  const type = first.pin_type;
  const typeTotal = (await apiPins(page, { pin_type_id: type.id, limit: "1" })).pagination.total;
  expect(typeTotal).toBeLessThan(pagination.total);
  await sheet.getByLabel("Pin type").selectOption(type.id);
  await expect(page).toHaveURL(new RegExp(`[?&]type=${type.id}(&|$)`));
  await expect(sheet).toContainText(`${typeTotal.toLocaleString("en-US")} of`);
  await expectAccessible(page);
  await shoot(page, "filters-sheet");
  await sheet.getByRole("button", { name: "Show the map" }).click();
  await expect(sheet).toBeHidden();
  await expect(filtersButton).toBeFocused();
  await expect(filtersButton).toHaveAttribute("data-count", "1");
  await mapLoaded(page);
  await expect(mapBox(page)).toHaveAttribute("data-rendered-pins", String(typeTotal));
  await filtersButton.click();
  await sheet.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/[?&]type=/);
  await expect(filtersButton).toHaveAttribute("data-count", "0");
  await sheet.getByRole("button", { name: "Close" }).click();
  await mapLoaded(page);
  await expect(mapBox(page)).toHaveAttribute("data-rendered-pins", String(pagination.total));

  // Locate me, after the user has moved on: back to where the user is now.
  const there = { latitude: other.location[0], longitude: other.location[1] };
  await context.setGeolocation(there);
  // Pressed while a zoom still animates (a pinch, a double tap), in one go so the position
  // arrives mid-animation: Leaflet drops a setView then, and the map must still go to the user.
  await page.evaluate(() => {
    document.querySelector<HTMLElement>(".leaflet-control-zoom-out")!.click();
    document.querySelector<HTMLElement>('[data-testid="locate-me"]')!.click();
  });
  await expectCentredOn(page, there);
  expect((await center(page)).zoom).toBeGreaterThanOrEqual(15);

  // The next visit opens on the last viewed area, not on the user's location nor on every pin.
  await page.getByRole("button", { name: "Zoom out" }).click();
  await expect.poll(async () => (await center(page)).zoom).toBeLessThan(15);
  const viewed = await center(page);
  await context.setGeolocation(here);
  await page.reload();
  await mapLoaded(page);
  await expectCentredOn(page, { latitude: viewed.lat, longitude: viewed.lng });
  expect((await center(page)).zoom).toBe(viewed.zoom);

  // Without access to the location, a clear message.
  await context.clearPermissions();
  await page.getByRole("button", { name: "Locate me" }).click();
  await expect(page.getByTestId("locate-message")).toContainText("Location access is blocked");
  await expectAccessible(page);
  await shoot(page, "locate-denied");
});

test("on a phone the knock sheet leaves the marker to drag in sight", async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep", { next: false });
  const [pin] = (await apiPins(page, { limit: "1" })).data;
  const here = { latitude: pin!.location[0] + 0.0004, longitude: pin!.location[1] - 0.0003 };
  await context.setGeolocation(here);
  await page.goto("/map");
  await mapLoaded(page);
  const top = await barBottom(page);

  const sheet = page.getByTestId("knock-sheet");
  const marker = page.locator(".field-drop-knock");
  const expectMarkerInSight = async () => {
    await expect(marker).toBeVisible();
    // The pan that lifts the marker above the sheet runs on the next frame.
    await expect
      .poll(async () => {
        const m = (await marker.boundingBox())!;
        const s = (await sheet.boundingBox())!;
        return m.y >= top && m.y + m.height <= s.y;
      })
      .toBe(true);
  };

  await page.getByRole("button", { name: "Log knock" }).click();
  await expect(page.getByTestId("knock-where")).toContainText("At your location");
  await expect(sheet.getByRole("group", { name: "Outcome" })).toBeVisible();
  await expectMarkerInSight();
  await expectAccessible(page);
  await shoot(page, "knock-sheet");

  // Placed by a tap low on the map, where the sheet would cover it: lifted above the sheet.
  await sheet.getByRole("button", { name: "Tap the map instead" }).click();
  await expect(page.getByTestId("knock-where")).toContainText("Tap the map where the door is");
  const map = (await leaflet(page).boundingBox())!;
  const sheetTop = (await sheet.boundingBox())!.y;
  await page.mouse.click(map.x + map.width * 0.4, sheetTop - 12);
  await expect(page.getByTestId("knock-where")).toContainText("Where you tapped");
  await expectMarkerInSight();
});

test("a first visit without location access opens on the pins, never on the placeholder", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep", { next: false });
  await context.clearPermissions();
  // The pins are held back: the start view is not decided while they load.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/pins(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/map");
  // The placeholder: the whole country, centred at 39.5, -98.35 (pin-map.tsx).
  await expect(leaflet(page)).toHaveAttribute("data-zoom", "4");
  // A visit left now must not make the country-wide placeholder the next visit's start.
  await page.waitForTimeout(1_000);
  expect(await page.evaluate(() => window.localStorage.getItem("fieldcrm:map-view"))).toBeNull();

  release();
  await mapLoaded(page);
  // Fitted to the pins (pins other tests dropped far away may keep the zoom low), that view is
  // the last viewed area.
  await expect
    .poll(async () => {
      const c = await center(page);
      return Math.max(Math.abs(c.lat - 39.5), Math.abs(c.lng + 98.35));
    })
    .toBeGreaterThan(1);
  await expect
    .poll(async () => {
      const kept = await page.evaluate(() => window.localStorage.getItem("fieldcrm:map-view"));
      if (!kept) return "nothing kept";
      const { center: at, zoom } = JSON.parse(kept) as { center: [number, number]; zoom: number };
      const now = await center(page);
      return Math.abs(at[0] - now.lat) < 1e-5 && Math.abs(at[1] - now.lng) < 1e-5 && zoom === now.zoom;
    })
    .toBe(true);
  await page.unroute(/\/api\/pins(\?|$)/);
});

import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  API_HEADERS,
  demoUser,
  expectAccessible,
  expectNoPageScrollX,
  newUserPage,
  screenshotBoth,
  signIn,
  unique,
} from "./helpers";

// Territories (issue 43, E6): draw, name, assign, save, edit, filter, see as rep or technician,
// delete. Outlines are SVG paths with data-territory-id, so the test reads what the map draws.

interface ApiTerritory {
  id: string;
  name: string;
  color: string;
  polygon: { type: "Polygon"; coordinates: [number, number][][] };
  assigned_to: string[];
}

async function apiGet<T>(page: Page, path: string, params: Record<string, string> = {}): Promise<T> {
  const res = await page.request.get(`/api${path}`, { headers: API_HEADERS, params });
  expect(res.ok(), path).toBe(true);
  return (await res.json()) as T;
}

async function territoryNamed(page: Page, name: string): Promise<ApiTerritory | undefined> {
  const { data } = await apiGet<{ data: ApiTerritory[] }>(page, "/territories");
  return data.find((t) => t.name === name);
}

async function totalOf(page: Page, path: string, params: Record<string, string> = {}): Promise<number> {
  const body = await apiGet<{ pagination: { total: number } }>(page, path, { ...params, limit: "1" });
  return body.pagination.total;
}

const mapBox = (page: Page) => page.getByTestId("pin-map");
const container = (page: Page) => mapBox(page).locator(".leaflet-container");
const outline = (page: Page, id: string) => container(page).locator(`path[data-territory-id="${id}"]`);

async function mapLoaded(page: Page) {
  await expect(mapBox(page)).toHaveAttribute("data-loading", "false", { timeout: 60_000 });
}

/** Clicks the map at page coordinates, one corner of the shape being drawn. */
async function clickAt(page: Page, [x, y]: [number, number]) {
  const box = (await container(page).boundingBox())!;
  await container(page).click({ position: { x: Math.round(x - box.x), y: Math.round(y - box.y) } });
}

/** Draws a polygon through the points (page coordinates), closing it on the first. */
async function drawShape(page: Page, points: [number, number][]) {
  for (const point of points) await clickAt(page, point);
  await clickAt(page, points[0]!);
}

/** Page coordinates of a point given as fractions of the map's box. */
async function mapPoint(page: Page, fx: number, fy: number): Promise<[number, number]> {
  const box = (await container(page).boundingBox())!;
  return [box.x + box.width * fx, box.y + box.height * fy];
}

/** The corner markers of the shape being edited (Geoman's, without the middle ones), in ring order. */
function corners(page: Page): Locator {
  return container(page).locator(".leaflet-marker-pane .marker-icon:not(.marker-icon-middle)");
}

async function centerOf(locator: Locator): Promise<[number, number]> {
  const box = (await locator.boundingBox())!;
  return [box.x + box.width / 2, box.y + box.height / 2];
}

/** Waits until the element stops moving (an animated zoom or pan has ended). */
async function settled(locator: Locator) {
  let last = "";
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await locator.boundingBox());
        const still = now === last;
        last = now;
        return still;
      },
      { intervals: [300] },
    )
    .toBe(true);
}

async function drag(page: Page, from: [number, number], to: [number, number]) {
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move(...to, { steps: 8 });
  await page.mouse.up();
}

/** The demo pin nearest the middle of the first pins listed: among many others. */
async function middlePin(page: Page): Promise<{ id: string; location: [number, number] }> {
  const { data } = await apiGet<{ data: { id: string; location: [number, number] }[] }>(page, "/pins", {
    limit: "200",
  });
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const lat = median(data.map((p) => p.location[0]));
  const lng = median(data.map((p) => p.location[1]));
  const off = (p: { location: [number, number] }) =>
    Math.abs(p.location[0] - lat) + Math.abs(p.location[1] - lng);
  return data.reduce((best, p) => (off(p) < off(best) ? p : best));
}

const form = (page: Page) => page.getByTestId("territory-form");
const sheet = (page: Page) => page.getByTestId("territory-sheet");
const toasts = (page: Page) => page.getByRole("region", { name: "Notifications" });

test("a manager draws, edits and deletes a territory; filters, a rep and a technician see it", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const name = `E2E North ${unique()}`;
  const rep = demoUser("sales_rep");
  await signIn(page, "manager", { next: false });
  // The map opens on a pin among the demo pins: fitted to every pin, pins other tests drop far
  // away (knocks.spec.ts) would leave the middle of the view empty.
  const middle = await middlePin(page);
  await page.goto(`/map?pin=${middle.id}`);
  await mapLoaded(page);
  await expect(page.getByTestId("pin-sheet")).toBeVisible();
  const allPins = await totalOf(page, "/pins");
  const allLeads = await totalOf(page, "/leads");

  // Territories → Draw territory → four corners around that pin, then the first again.
  await page.getByRole("button", { name: "Edit territories" }).click();
  await sheet(page).getByRole("button", { name: "Draw territory" }).click();
  await expect(sheet(page)).toContainText("Click or tap the map at each corner");
  const square = [
    await mapPoint(page, 0.45, 0.3),
    await mapPoint(page, 0.7, 0.3),
    await mapPoint(page, 0.7, 0.7),
    await mapPoint(page, 0.45, 0.7),
  ];
  await drawShape(page, square);

  // The form: name, a color, a rep; the shape stays editable on the map.
  await expect(form(page)).toBeVisible();
  await expect(form(page).getByTestId("territory-shape")).toContainText("4 corners");
  await expect(corners(page)).toHaveCount(4);
  await form(page).getByLabel("Name").fill(name);
  // The swatch is the radio's label (the input itself is visually hidden).
  await form(page).getByTitle("Green").click();
  await expect(form(page).getByRole("radio", { name: "Green" })).toBeChecked();
  await form(page).getByLabel(`${rep.name} (Sales rep)`).check();
  await screenshotBoth(page, "editor");
  await expectAccessible(page);
  await form(page).getByRole("button", { name: "Save" }).click();
  await expect(toasts(page)).toContainText(`Territory saved: ${name}`);
  await expect(sheet(page)).toBeVisible();

  const saved = (await territoryNamed(page, name))!;
  expect(saved, "the territory is stored").toBeDefined();
  expect(saved.color).toBe("#15803d");
  expect(saved.assigned_to).toEqual([rep.id]);
  expect(saved.polygon.coordinates[0]).toHaveLength(5);
  await expect(outline(page, saved.id)).toHaveCount(1);

  // It persists after a reload.
  await page.reload();
  await mapLoaded(page);
  await expect(outline(page, saved.id)).toHaveCount(1);

  // Edit: a corner dragged across the opposite edge makes the edges cross: the API's 400 shows
  // at the shape; dragged back, a new name saves.
  await page.getByRole("button", { name: "Edit territories" }).click();
  await sheet(page)
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  await expect(form(page).getByLabel("Name")).toHaveValue(name);
  // Closing with a change asks first: Keep editing keeps it, Discard drops it.
  await form(page).getByLabel("Name").fill(`${name} draft`);
  await form(page).getByRole("button", { name: "Cancel" }).click();
  const discard = page.getByRole("alertdialog", { name: "Discard changes?" });
  await discard.getByRole("button", { name: "Keep editing" }).click();
  await expect(form(page).getByLabel("Name")).toHaveValue(`${name} draft`);
  // Esc on the question is Keep editing too; it does not close the sheet behind it.
  await form(page).getByLabel("Name").press("Escape");
  await expect(discard).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(discard).toBeHidden();
  await expect(form(page).getByLabel("Name")).toHaveValue(`${name} draft`);
  await form(page).getByRole("button", { name: "Close" }).click();
  await discard.getByRole("button", { name: "Discard" }).click();
  await expect(form(page)).toBeHidden();
  expect((await territoryNamed(page, name))?.id, "nothing was saved").toBe(saved.id);
  await sheet(page)
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  await expect(form(page).getByLabel("Name")).toHaveValue(name);
  await expect(corners(page)).toHaveCount(4);
  // The map fits the territory (animated): wait until the corners stand still.
  await settled(corners(page).first());
  const [, b, c, d] = await Promise.all([0, 1, 2, 3].map((i) => centerOf(corners(page).nth(i))));
  // Just right of the edge b–c: the edge d–a now crosses it.
  const across: [number, number] = [b![0] + 30, (b![1] + c![1]) / 2];
  await drag(page, d!, across);
  await form(page).getByRole("button", { name: "Save" }).click();
  await expect(form(page).getByTestId("territory-shape").getByRole("alert")).toContainText(
    "must not intersect itself",
  );
  await drag(page, await centerOf(corners(page).nth(3)), d!);
  const renamed = `${name} renamed`;
  await form(page).getByLabel("Name").fill(renamed);
  await form(page).getByRole("button", { name: "Save" }).click();
  await expect(toasts(page)).toContainText(`Territory saved: ${renamed}`);
  expect((await territoryNamed(page, renamed))?.id).toBe(saved.id);
  await sheet(page).getByRole("button", { name: "Close" }).click();

  // The map's filter: only the pins inside, as GET /pins?territory_id= lists them.
  const inside = await totalOf(page, "/pins", { territory_id: saved.id });
  expect(inside, "the territory holds some pins, not all").toBeGreaterThan(0);
  expect(inside).toBeLessThan(allPins);
  await page.getByLabel("Territory").selectOption(saved.id);
  await expect(page).toHaveURL(new RegExp(`[?&]territory=${saved.id}(&|$)`));
  await mapLoaded(page);
  await expect(mapBox(page)).toHaveAttribute("data-rendered-pins", String(inside));
  await expect(mapBox(page)).toHaveAttribute("data-total", String(inside));

  // The leads list's filter, in the URL as territory_id.
  const leadsInside = await totalOf(page, "/leads", { territory_id: saved.id });
  expect(leadsInside).toBeLessThan(allLeads);
  await page.goto("/leads");
  await page.getByLabel("Territory").selectOption(saved.id);
  await expect(page).toHaveURL(new RegExp(`[?&]territory_id=${saved.id}(&|$)`));
  await expect(page.getByTestId("table-total")).toHaveText(
    leadsInside === 0 ? /^0 leads$/ : new RegExp(`of ${leadsInside.toLocaleString("en-US")} leads?$`),
  );

  // The rep sees the territory outlined as theirs, and no editor.
  const repPage = await newUserPage(browser);
  await signIn(repPage, "sales_rep", { next: false });
  await repPage.goto("/map");
  await mapLoaded(repPage);
  await expect(outline(repPage, saved.id)).toHaveClass(/territory-own/);
  await expect(repPage.getByRole("button", { name: "Edit territories" })).toHaveCount(0);
  await repPage.context().close();

  // A technician sees the outline (not theirs) and no editor.
  const techPage = await newUserPage(browser);
  await signIn(techPage, "technician", { next: false });
  await techPage.goto("/map");
  await mapLoaded(techPage);
  await expect(outline(techPage, saved.id)).toHaveCount(1);
  await expect(outline(techPage, saved.id)).not.toHaveClass(/territory-own/);
  await expect(techPage.getByRole("button", { name: "Edit territories" })).toHaveCount(0);
  await techPage.context().close();

  // Delete, after a confirmation.
  await page.goto("/map");
  await mapLoaded(page);
  await page.getByRole("button", { name: "Edit territories" }).click();
  await sheet(page)
    .getByRole("button", { name: `Edit ${renamed}` })
    .click();
  await form(page).getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(`Delete ${renamed}?`);
  await confirm.getByRole("button", { name: "Delete territory" }).click();
  await expect(toasts(page)).toContainText(`Territory deleted: ${renamed}`);
  await expect(sheet(page).getByRole("button", { name: `Edit ${renamed}` })).toHaveCount(0);
  await expect(outline(page, saved.id)).toHaveCount(0);
  expect(await territoryNamed(page, renamed)).toBeUndefined();
});

test("on a phone the territory editor is a bottom sheet with thumb-sized controls", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const name = `E2E Phone ${unique()}`;
  await signIn(page, "manager", { next: false });
  await page.goto("/map");
  await mapLoaded(page);
  // On a phone the territory tools wait in the Filters sheet with the filters.
  await page.getByRole("button", { name: /^Filters/ }).click();
  await page.getByTestId("filters-sheet").getByRole("button", { name: "Edit territories" }).click();
  await expect(page.getByTestId("filters-sheet")).toBeHidden();
  await sheet(page).getByRole("button", { name: "Draw territory" }).click();

  // Tap three corners in the part of the map the sheet leaves visible.
  const map = (await container(page).boundingBox())!;
  const sheetTop = (await sheet(page).boundingBox())!.y;
  // Below the folded legend at the top of the map.
  const top = map.y + 80;
  const bottom = Math.min(sheetTop, map.y + map.height) - 24;
  await drawShape(page, [
    [map.x + map.width * 0.3, top],
    [map.x + map.width * 0.7, top],
    [map.x + map.width * 0.5, bottom],
  ]);

  await expect(form(page)).toBeVisible();
  const box = (await form(page).boundingBox())!;
  expect(box.width).toBe(390);
  expect(Math.round(box.y + box.height)).toBe(844);
  await form(page).getByLabel("Name").fill(name);
  const sizes = await form(page)
    .locator("button, label:has(input[type=radio]), div:has(> input[type=checkbox])")
    .evaluateAll((els) =>
      els.map((e) => [e.textContent?.trim() || e.getAttribute("title"), e.getBoundingClientRect()] as const),
    );
  for (const [label, rect] of sizes) {
    // Controls scrolled out of the sheet's view have a size too: all are checked.
    expect(rect.height, `${label}`).toBeGreaterThanOrEqual(44);
  }
  // The sheet is above the legend, which stays folded at the top of the map.
  await expect(page.getByRole("button", { name: /^Legend/ })).toHaveAttribute("aria-expanded", "false");
  await expectNoPageScrollX(page);
  await page.screenshot({ path: "test-results/screenshots/territories-phone-form-390.png" });

  await form(page).getByRole("button", { name: "Save" }).click();
  await expect(toasts(page)).toContainText(`Territory saved: ${name}`);
  const saved = (await territoryNamed(page, name))!;
  expect(saved.polygon.coordinates[0]).toHaveLength(4);
  const res = await page.request.delete(`/api/territories/${saved.id}`, { headers: API_HEADERS });
  expect(res.status()).toBe(204);
});

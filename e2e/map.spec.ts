import { expect, test, type Page } from "@playwright/test";
import { API_HEADERS, screenshotBoth, signIn } from "./helpers";

// The map draws pins on a canvas, so it publishes what it holds in data attributes
// (data-rendered-pins, data-count, data-visible), which the test compares with the API.

interface PinType {
  id: string;
  label: string;
  color: string;
}

async function pinTotal(page: Page, params: Record<string, string> = {}): Promise<number> {
  const response = await page.request.get("/api/pins", {
    headers: API_HEADERS,
    params: { ...params, limit: "1" },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { pagination: { total: number } }).pagination.total;
}

async function expectRendered(page: Page, count: number) {
  const map = page.getByTestId("pin-map");
  // Every page of pins is in (pages of 1000), then the layer holds exactly the visible pins.
  await expect(map).toHaveAttribute("data-loading", "false", { timeout: 60_000 });
  await expect(map).toHaveAttribute("data-rendered-pins", String(count));
}

test("the map shows every pin the API lists for the filters, and the legend hides a type @smoke", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Field staff use the map.
  await signIn(page, "technician", { next: false });
  await page.goto("/map");
  await expect(page.getByRole("heading", { level: 1, name: "Map" })).toBeVisible();

  const total = await pinTotal(page);
  expect(total, "the demo data has pins").toBeGreaterThan(0);
  await expectRendered(page, total);
  await expect(page.getByTestId("pin-map").locator(".leaflet-container")).toBeVisible();
  await screenshotBoth(page, "all-pins");

  const typesResponse = await page.request.get("/api/pin-types", { headers: API_HEADERS });
  const types = ((await typesResponse.json()) as { data: PinType[] }).data;
  const counts = new Map<string, number>();
  for (const type of types) counts.set(type.id, await pinTotal(page, { pin_type_id: type.id }));
  const type = types.find((t) => (counts.get(t.id) ?? 0) > 0 && (counts.get(t.id) ?? 0) < total);
  expect(type, "the demo pins have more than one pin type").toBeDefined();

  // The legend counts every type of the loaded set.
  for (const t of types) {
    await expect(page.locator(`[data-pin-type-id="${t.id}"]`)).toHaveAttribute(
      "data-count",
      String(counts.get(t.id)),
    );
  }

  // Filter by pin type (the API's pin_type_id): as many pins as the API lists for it.
  await page.getByLabel("Pin type").selectOption(type!.id);
  await expect(page).toHaveURL(new RegExp(`[?&]type=${type!.id}(&|$)`));
  await expectRendered(page, counts.get(type!.id)!);

  // Filter by the rep who created the pins (the API's user_id), on top of the type.
  const repSelect = page.getByLabel("Created by");
  const repId = await repSelect.locator("option").nth(1).getAttribute("value");
  expect(repId, "a rep created pins").toBeTruthy();
  await repSelect.selectOption(repId!);
  await expect(page).toHaveURL(new RegExp(`[?&]rep=${repId}(&|$)`));
  await expectRendered(page, await pinTotal(page, { pin_type_id: type!.id, user_id: repId! }));

  // Back to every pin; the legend hides one type, then shows it again.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expectRendered(page, total);
  const toggle = page.getByRole("switch", { name: new RegExp(type!.label) });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(page).toHaveURL(/[?&]hidden=/);
  await expectRendered(page, total - counts.get(type!.id)!);
  await screenshotBoth(page, "type-hidden");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expectRendered(page, total);

  // On a phone the legend starts folded and opens on demand.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const legendButton = page.getByRole("button", { name: /^Legend/ });
  await expect(legendButton).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeHidden();
  await legendButton.click();
  await expect(legendButton).toHaveAttribute("aria-expanded", "true");
  await expect(toggle).toBeVisible();
  await expect(page.getByRole("button", { name: "Zoom in" })).toBeVisible();
});

test("a link to a pin opens the map on it with its sheet: type, creator and time", async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
  const response = await page.request.get("/api/pins", { headers: API_HEADERS, params: { limit: "1" } });
  const [pin] = (
    (await response.json()) as {
      data: { id: string; created_at: string; pin_type: PinType; created_by: { name: string } }[];
    }
  ).data;
  expect(pin, "the demo data has pins").toBeDefined();

  await page.goto(`/map?pin=${encodeURIComponent(pin!.id)}`);
  await expectRendered(page, await pinTotal(page));
  const sheet = page.getByTestId("pin-sheet");
  await expect(sheet).toBeVisible();
  await expect(sheet.locator(`[data-pin-id="${pin!.id}"]`)).toBeVisible();
  await expect(sheet.getByTestId("pin-sheet-type")).toHaveText(pin!.pin_type.label);
  await expect(sheet).toContainText(pin!.created_by.name);
  // The time in the user's locale (lib/format.ts formatDateTime).
  const when = await page.evaluate(
    (iso) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)),
    pin!.created_at,
  );
  await expect(sheet).toContainText(when);
  await screenshotBoth(page, "pin-sheet");
});

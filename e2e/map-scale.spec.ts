import { expect, test } from "@playwright/test";
import type { ListPinsResponse, Pin } from "@/lib/schemas/pins";
import type { PinType } from "@/lib/schemas/pin-types";
import { API_HEADERS, signIn } from "./helpers";

// The map with 50,000 generated pins (issue 43), answered here so only the browser's work counts.
// Checks every pin is drawn; times are recorded as annotations, not asserted.

const PIN_COUNT = 50_000;

/** Pins spread over a city (Austin), deterministic: pin i is always at the same place. */
function pinAt(i: number, types: PinType[]): Pin {
  const type = types[i % types.length]!;
  const at = new Date(Date.UTC(2026, 10, 1) - i * 60_000).toISOString();
  return {
    id: `pin_scale_${String(i).padStart(6, "0")}`,
    created_at: at,
    created_by: { user_id: "usr_scale", email: "scale@example.test", name: "Scale Test" },
    location: [
      30.2672 + (((i * 7919) % 4000) - 2000) / 10_000,
      -97.7431 + (((i * 104_729) % 4000) - 2000) / 10_000,
    ],
    pin_type: type,
    address: { street1: null, city: null, state: null, zip: null },
    notes: null,
    lead_id: null,
    updated_at: at,
    visit_count: 1,
    last_visit_at: at,
  };
}

test("the map draws 50,000 pins, and how long its first view and the whole set take", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "technician", { next: false });
  const typesResponse = await page.request.get("/api/pin-types", { headers: API_HEADERS });
  const types = ((await typesResponse.json()) as { data: PinType[] }).data;

  await page.route(/\/api\/pins\?/, async (route) => {
    const url = new URL(route.request().url());
    const limit = Number(url.searchParams.get("limit") ?? 100);
    const pageNumber = Number(url.searchParams.get("page") ?? 1);
    const from = (pageNumber - 1) * limit;
    const data = Array.from({ length: Math.max(0, Math.min(limit, PIN_COUNT - from)) }, (_, k) =>
      pinAt(from + k, types),
    );
    const body: ListPinsResponse = {
      status: "success",
      data,
      pagination: { page: pageNumber, limit, total: PIN_COUNT, has_more: from + data.length < PIN_COUNT },
    };
    await route.fulfill({ json: body });
  });

  // Milliseconds from the navigation's start until the map shows `count` pins (any, when null),
  // read in the page at every frame, so the time is not rounded up to an assertion's polling.
  const drawnAt = async (count: number | null, timeout: number) =>
    (
      await page.waitForFunction(
        (n) => {
          const drawn = document.querySelector('[data-testid="pin-map"]')?.getAttribute("data-rendered-pins");
          const done =
            n === null ? drawn !== undefined && drawn !== null && drawn !== "0" : drawn === String(n);
          return done ? Math.round(performance.now()) : false;
        },
        count,
        { polling: "raf", timeout },
      )
    ).jsonValue();

  const map = page.getByTestId("pin-map");
  await page.goto("/map");
  const firstView = await drawnAt(null, 30_000);
  const allPins = await drawnAt(PIN_COUNT, 120_000);
  await expect(map).toHaveAttribute("data-rendered-pins", String(PIN_COUNT));

  test
    .info()
    .annotations.push(
      { type: "first view (ms)", description: String(firstView) },
      { type: `all ${PIN_COUNT} pins (ms)`, description: String(allPins) },
    );
  console.log(`[map-scale] first view ${firstView} ms, all ${PIN_COUNT} pins ${allPins} ms`);
  await expect(map.locator(".leaflet-container")).toBeVisible();
});

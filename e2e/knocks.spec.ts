import { expect, test, type Page, type Route } from "@playwright/test";
import { API_HEADERS, axe, demoUser, expectNoPageScrollX, screenshotBoth, signIn, unique } from "./helpers";

// The map as the field team's tool (issue 43, E5): logging knocks, door history, moving pins,
// offline knocks sent once, and a lead made from a door.

interface PinType {
  id: string;
  label: string;
  color: string;
}
interface ApiPin {
  id: string;
  location: [number, number];
  notes: string | null;
  lead_id: string | null;
  pin_type: PinType;
  created_by: { user_id: string; name: string };
  address: { street1: string | null } | null;
}
interface ApiPinDetail extends ApiPin {
  visits: { at: string; by: { name: string }; pin_type: PinType }[];
}

async function apiGet<T>(page: Page, path: string, params: Record<string, string> = {}): Promise<T> {
  const res = await page.request.get(`/api${path}`, { headers: API_HEADERS, params });
  expect(res.ok(), path).toBe(true);
  return (await res.json()) as T;
}

/** The signed-in user's pins whose notes are exactly `notes` (newest first). */
async function pinsWithNotes(page: Page, userId: string, notes: string): Promise<ApiPin[]> {
  const body = await apiGet<{ data: ApiPin[] }>(page, "/pins", { created_by: userId, limit: "100" });
  return body.data.filter((p) => p.notes === notes);
}

async function pinTypes(page: Page): Promise<PinType[]> {
  return (await apiGet<{ data: PinType[] }>(page, "/pin-types")).data;
}

const mapBox = (page: Page) => page.getByTestId("pin-map");

async function mapLoaded(page: Page) {
  await expect(mapBox(page)).toHaveAttribute("data-loading", "false", { timeout: 60_000 });
}

/** Opens the map zoomed on a demo pin (single pins show there, no clusters to tap by mistake). */
async function openMapNearAPin(page: Page): Promise<ApiPin> {
  const [pin] = (await apiGet<{ data: ApiPin[] }>(page, "/pins", { limit: "1" })).data;
  expect(pin, "the demo data has pins").toBeDefined();
  await page.goto(`/map?pin=${encodeURIComponent(pin!.id)}`);
  await mapLoaded(page);
  await expect(page.getByTestId("pin-sheet")).toBeVisible();
  await page.getByTestId("pin-sheet").getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("pin-sheet")).toBeHidden();
  return pin!;
}

/** Taps the map at a point given as fractions of its width and height. */
async function tapMap(page: Page, fx: number, fy: number) {
  const container = mapBox(page).locator(".leaflet-container");
  const box = (await container.boundingBox())!;
  await container.click({ position: { x: Math.round(box.width * fx), y: Math.round(box.height * fy) } });
}

const knockSheet = (page: Page) => page.getByTestId("knock-sheet");
const toasts = (page: Page) => page.getByRole("region", { name: "Notifications" });

test("a rep logs a knock at a tapped point, records another outcome and moves the pin", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep");
  const rep = demoUser("sales_rep");
  const types = await pinTypes(page);
  expect(types.length).toBeGreaterThan(1);
  await openMapNearAPin(page);
  await screenshotBoth(page, "map");

  const before = Number(await mapBox(page).getAttribute("data-rendered-pins"));
  await page.getByRole("button", { name: "Log knock" }).click();
  await expect(knockSheet(page)).toBeVisible();
  // Without the device's location (not granted here) a tap places the knock.
  await tapMap(page, 0.7, 0.3);
  await expect(page.getByTestId("knock-where")).toContainText("Where you tapped");
  const notes = `Knock ${unique()}`;
  await knockSheet(page).getByLabel("Notes (optional)").fill(notes);
  await knockSheet(page).getByText("Address (optional)").click();
  await knockSheet(page).getByLabel("Street").fill("12 Knock Lane");
  await knockSheet(page).getByLabel("City").fill("Austin");
  // The outcomes in settings order, each a large button.
  const outcomes = knockSheet(page).getByRole("group", { name: "Outcome" }).getByRole("button");
  await expect(outcomes).toHaveText(types.map((t) => t.label));
  for (const box of await outcomes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height)))
    expect(box).toBeGreaterThanOrEqual(44);
  await screenshotBoth(page, "knock-sheet", { fullPage: false });

  // One tap on the outcome saves.
  await knockSheet(page)
    .getByRole("group", { name: "Outcome" })
    .getByRole("button", { name: types[0]!.label, exact: true })
    .click();
  await expect(toasts(page)).toContainText(`Knock saved: ${types[0]!.label}`);
  await expect(knockSheet(page)).toBeHidden();
  await expect(mapBox(page)).toHaveAttribute("data-rendered-pins", String(before + 1));
  const [pin] = await pinsWithNotes(page, rep.id, notes);
  expect(pin).toMatchObject({ pin_type: { id: types[0]!.id }, address: { street1: "12 Knock Lane" } });

  // The door's sheet: a click on the pin (the map is centered on it).
  await page.goto(`/map?pin=${encodeURIComponent(pin!.id)}`);
  await mapLoaded(page);
  const sheet = page.getByTestId("pin-sheet");
  await expect(sheet).toContainText("12 Knock Lane, Austin");
  await sheet.getByRole("button", { name: "Close" }).click();
  await tapMap(page, 0.5, 0.5);
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText(notes);
  await expect(sheet.getByTestId("pin-visits").getByRole("listitem")).toHaveCount(1);

  // Another outcome minutes after the knock: the rep's visit is corrected, not a second knock
  // (extensions.md E5), in the history, on the map and in the API.
  const other = types[1]!;
  await sheet
    .getByRole("group", { name: "Change the outcome" })
    .getByRole("button", { name: other.label, exact: true })
    .click();
  await expect(toasts(page)).toContainText(`Visit corrected: ${other.label}`);
  await expect(sheet.getByTestId("pin-sheet-type")).toHaveText(other.label);
  await expect(sheet.getByTestId("pin-visits").getByRole("listitem")).toHaveCount(1);
  await expect(sheet.getByTestId("pin-visits").getByRole("listitem").first()).toContainText(other.label);
  await expect(sheet.getByTestId("pin-last-visit")).toContainText(rep.name);
  const detail = (await apiGet<{ data: ApiPinDetail }>(page, `/pins/${pin!.id}`)).data;
  expect(detail.visits.map((v) => v.pin_type.id)).toEqual([other.id]);
  await screenshotBoth(page, "pin-history", { fullPage: false });

  // Move the pin: drag, then confirm.
  await sheet.getByRole("button", { name: "Move pin" }).click();
  const move = page.getByTestId("move-sheet");
  await expect(move).toContainText("Drag the pin");
  await expect(move.getByRole("button", { name: "Save new place" })).toBeDisabled();
  const marker = page.locator(".field-drop-move");
  const at = (await marker.boundingBox())!;
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await page.mouse.down();
  await page.mouse.move(at.x + at.width / 2 + 40, at.y + at.height / 2 + 30, { steps: 8 });
  await page.mouse.up();
  await expect(move).toContainText("Move the pin to the new place?");
  await move.getByRole("button", { name: "Save new place" }).click();
  await expect(toasts(page)).toContainText("Pin moved");
  const moved = (await apiGet<{ data: ApiPinDetail }>(page, `/pins/${pin!.id}`)).data;
  expect(moved.location).not.toEqual(pin!.location);
  // A move is not a visit.
  expect(moved.visits).toHaveLength(1);
});

test("the device's location places the knock; a refused location says so and a tap still works", async ({
  page,
  context,
}) => {
  await signIn(page, "technician");
  // A technician starts on the map.
  await expect(page).toHaveURL(/\/map/);
  const tech = demoUser("technician");
  const near = await openMapNearAPin(page);
  const types = await pinTypes(page);

  await context.grantPermissions(["geolocation"]);
  const here = { latitude: near.location[0] + 0.0004, longitude: near.location[1] - 0.0003 };
  await context.setGeolocation(here);
  await page.getByRole("button", { name: "Log knock" }).click();
  await expect(page.getByTestId("knock-where")).toContainText("At your location");
  const notes = `GPS ${unique()}`;
  await knockSheet(page).getByLabel("Notes (optional)").fill(notes);
  await knockSheet(page).getByRole("group", { name: "Outcome" }).getByRole("button").last().click();
  await expect(toasts(page)).toContainText("Knock saved");
  const [pin] = await pinsWithNotes(page, tech.id, notes);
  expect(pin!.location[0]).toBeCloseTo(here.latitude, 6);
  expect(pin!.location[1]).toBeCloseTo(here.longitude, 6);
  expect(pin!.pin_type.id).toBe(types.at(-1)!.id);

  await context.clearPermissions();
  await page.getByRole("button", { name: "Log knock" }).click();
  await expect(page.getByTestId("knock-where")).toContainText("Location access is blocked");
  // No outcome until the knock has a place.
  await expect(knockSheet(page).getByRole("group", { name: "Outcome" })).toHaveCount(0);
  await screenshotBoth(page, "location-denied", { fullPage: false });
  await tapMap(page, 0.7, 0.3);
  await expect(page.getByTestId("knock-where")).toContainText("Where you tapped");
  await knockSheet(page).getByRole("button", { name: "Close" }).click();
  await expect(knockSheet(page)).toBeHidden();
});

test("a knock without a connection waits on the device, survives a reload and is sent once", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep");
  const rep = demoUser("sales_rep");
  await openMapNearAPin(page);

  await context.setOffline(true);
  await page.getByRole("button", { name: "Log knock" }).click();
  await tapMap(page, 0.35, 0.6);
  const notes = `Offline ${unique()}`;
  await knockSheet(page).getByLabel("Notes (optional)").fill(notes);
  await knockSheet(page).getByRole("group", { name: "Outcome" }).getByRole("button").first().click();
  await expect(toasts(page)).toContainText("Knock kept on this device");
  const pending = page.getByTestId("pending-knocks");
  await expect(pending).toHaveText("1 pending");
  await expect(page.locator(".pending-knock")).toHaveCount(1);
  await screenshotBoth(page, "pending-knock", { fullPage: false });

  // A reload needs the server: back online for the page, while sending still fails (no route).
  await page.route("**/api/pins", (route) =>
    route.request().method() === "POST" ? route.abort("internetdisconnected") : route.fallback(),
  );
  await context.setOffline(false);
  await page.reload();
  await mapLoaded(page);
  await expect(pending).toHaveText("1 pending");
  await expect(page.locator(".pending-knock")).toHaveCount(1);
  expect(await pinsWithNotes(page, rep.id, notes)).toHaveLength(0);

  // The connection returns: sent, once.
  await page.unroute("**/api/pins");
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(pending).toBeHidden();
  await expect(page.locator(".pending-knock")).toHaveCount(0);
  await expect.poll(async () => (await pinsWithNotes(page, rep.id, notes)).length).toBe(1);
  // Another "online" (a retry) makes no second pin.
  await context.setOffline(true);
  await context.setOffline(false);
  await page.reload();
  await mapLoaded(page);
  expect(await pinsWithNotes(page, rep.id, notes)).toHaveLength(1);
});

/** The signed-in user's knocks waiting on the device, as stored. */
async function storedKnocks(page: Page, userId: string): Promise<{ client_id: string; notes?: string }[]> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), `knocks-pending:${userId}`);
  return raw ? (JSON.parse(raw) as { client_id: string; notes?: string }[]) : [];
}

async function seedKnocks(page: Page, userId: string, knocks: Record<string, unknown>[]) {
  await page.evaluate(([key, list]) => localStorage.setItem(key as string, list as string), [
    `knocks-pending:${userId}`,
    JSON.stringify(knocks),
  ] as const);
}

test("a knock saved by the server whose answer was lost is sent again and stays one pin", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep");
  const rep = demoUser("sales_rep");
  await openMapNearAPin(page);
  // Each send reaches the server, which saves, and then its answer is lost on the way back.
  let delivered = 0;
  const loseAnswers = async (route: Route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await route.fetch();
    delivered += 1;
    await route.abort("connectionreset");
  };
  await page.route("**/api/pins", loseAnswers);

  await page.getByRole("button", { name: "Log knock" }).click();
  await tapMap(page, 0.4, 0.55);
  const notes = `Lost answer ${unique()}`;
  await knockSheet(page).getByLabel("Notes (optional)").fill(notes);
  await knockSheet(page).getByRole("group", { name: "Outcome" }).getByRole("button").first().click();
  // No answer: the knock waits on the device, though the server has it.
  await expect(toasts(page)).toContainText("Knock kept on this device");
  const pending = page.getByTestId("pending-knocks");
  await expect(pending).toHaveText("1 pending");
  expect(delivered).toBe(1);

  // The connection "returns": the queue sends the knock again, and loses that answer too.
  await context.setOffline(true);
  await context.setOffline(false);
  await expect.poll(() => delivered).toBe(2);
  // While the queue still holds the knock, the server has exactly one pin for it.
  await expect(pending).toHaveText("1 pending");
  expect((await storedKnocks(page, rep.id)).map((k) => k.notes)).toEqual([notes]);
  expect(await pinsWithNotes(page, rep.id, notes)).toHaveLength(1);

  // An answer gets through: the queue lets go of the knock, and there is still one pin.
  await page.unroute("**/api/pins", loseAnswers);
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(pending).toBeHidden();
  expect(await storedKnocks(page, rep.id)).toEqual([]);
  expect(await pinsWithNotes(page, rep.id, notes)).toHaveLength(1);
});

/** A door of the signed-in rep knocked `minutesAgo` ago (older than the 10-minute correction window). */
async function ownDoor(page: Page, typeId: string, minutesAgo: number): Promise<ApiPin> {
  const res = await page.request.post("/api/pins", {
    headers: API_HEADERS,
    data: {
      location: [40.7484, -73.9857],
      pin_type_id: typeId,
      notes: `Door ${unique()}`,
      visited_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as ApiPin;
}

test("an outcome change offline waits with its time, survives a reload and is one visit", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "sales_rep");
  const rep = demoUser("sales_rep");
  const types = await pinTypes(page);
  const [from, to] = [types[0]!, types[1]!];
  const door = await ownDoor(page, from.id, 30);
  await page.goto(`/map?pin=${encodeURIComponent(door.id)}`);
  await mapLoaded(page);
  const sheet = page.getByTestId("pin-sheet");
  await expect(sheet).toBeVisible();

  await context.setOffline(true);
  await sheet
    .getByRole("group", { name: "Change the outcome" })
    .getByRole("button", { name: to.label, exact: true })
    .click();
  await expect(toasts(page)).toContainText(`Outcome kept on this device: ${to.label}`);
  const pending = page.getByTestId("pending-knocks");
  await expect(pending).toHaveText("1 pending");
  await expect(sheet.getByTestId("pin-pending-outcome")).toContainText(`Pending: ${to.label}`);
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await screenshotBoth(page, `pending-outcome-${theme}`, { fullPage: false });
    const results = await axe(page)
      .include('[data-testid="pin-sheet"]')
      .include('[data-testid="pending-knocks"]')
      .analyze();
    expect(
      results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
      theme,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });

  // A new knock offline too: the badge counts both.
  await sheet.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Log knock" }).click();
  await tapMap(page, 0.35, 0.6);
  const notes = `Offline timed ${unique()}`;
  await knockSheet(page).getByLabel("Notes (optional)").fill(notes);
  await knockSheet(page).getByRole("group", { name: "Outcome" }).getByRole("button").first().click();
  await expect(pending).toHaveText("2 pending");
  const queued = await storedKnocks(page, rep.id);
  const times = queued.map((c) => (c as { logged_at?: string }).logged_at);
  expect(times.every(Boolean)).toBe(true);

  // The tab is reloaded while sends still fail: both wait, the sheet still shows the pending outcome.
  await page.route("**/api/pins", (route) =>
    route.request().method() === "POST" ? route.abort("internetdisconnected") : route.fallback(),
  );
  await context.setOffline(false);
  await page.goto(`/map?pin=${encodeURIComponent(door.id)}`);
  await mapLoaded(page);
  await expect(pending).toHaveText("2 pending");
  await expect(sheet.getByTestId("pin-pending-outcome")).toBeVisible();
  await page.unroute("**/api/pins");

  // The connection returns, but the answers are lost: the server has the changes, the queue keeps them.
  let delivered = 0;
  const loseAnswers = async (route: Route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await route.fetch();
    delivered += 1;
    await route.abort("connectionreset");
  };
  await page.route("**/api/pins", loseAnswers);
  await context.setOffline(true);
  await context.setOffline(false);
  await expect.poll(() => delivered).toBeGreaterThanOrEqual(1);
  await page.unroute("**/api/pins", loseAnswers);

  // Sent again, and answered: the queue empties; one visit for the change, one pin for the knock.
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(pending).toBeHidden();
  await expect(sheet.getByTestId("pin-pending-outcome")).toBeHidden();
  const detail = (await apiGet<{ data: ApiPinDetail }>(page, `/pins/${door.id}`)).data;
  expect(detail.pin_type.id).toBe(to.id);
  expect(detail.visits.map((v) => v.pin_type.id)).toEqual([to.id, from.id]);
  // Each is dated when it happened on the device, not when it reached the server.
  expect(detail.visits[0]!.at).toBe(times[0]);
  const knocked = await pinsWithNotes(page, rep.id, notes);
  expect(knocked).toHaveLength(1);
  expect((knocked[0] as ApiPin & { created_at: string }).created_at).toBe(times[1]);
});

test("a knock the API refuses leaves the queue and says why; one the server failed waits", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep");
  const rep = demoUser("sales_rep");
  await openMapNearAPin(page);
  const pending = page.getByTestId("pending-knocks");
  // A knock that waited on the device with a pin type that no longer exists: a 400, final.
  await seedKnocks(page, rep.id, [
    {
      client_id: `e2e-${unique()}`,
      location: [30.27, -97.74],
      pin_type_id: "no-such-type",
      logged_at: new Date().toISOString(),
    },
  ]);
  await page.reload();
  await mapLoaded(page);
  const refused = toasts(page).getByText("Knock not sent");
  await expect(refused).toBeVisible();
  await expect(toasts(page)).toContainText("pin_type_id");
  // Dropped from the queue: nothing left to send again.
  await expect(pending).toBeHidden();
  expect(await storedKnocks(page, rep.id)).toEqual([]);
  // The user can log it again, with the reason in view.
  await toasts(page).getByRole("button", { name: "Log again" }).click();
  await expect(knockSheet(page)).toContainText("Not sent:");
  await knockSheet(page).getByRole("button", { name: "Close" }).click();

  // A server failure is not final: the knock waits, and goes once the server answers.
  const types = await pinTypes(page);
  const notes = `Server failed ${unique()}`;
  await seedKnocks(page, rep.id, [
    {
      client_id: `e2e-${unique()}`,
      location: [30.27, -97.74],
      pin_type_id: types[0]!.id,
      notes,
      logged_at: new Date().toISOString(),
    },
  ]);
  let failed = 0;
  const unavailable = async (route: Route) => {
    if (route.request().method() !== "POST") return route.fallback();
    failed += 1;
    await route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({
        status: "error",
        message: "The service is temporarily unavailable; please retry shortly",
        error_code: "SERVICE_UNAVAILABLE",
      }),
    });
  };
  await page.route("**/api/pins", unavailable);
  await page.reload();
  await mapLoaded(page);
  await expect.poll(() => failed).toBeGreaterThan(0);
  await expect(pending).toHaveText("1 pending");
  expect((await storedKnocks(page, rep.id)).map((k) => k.notes)).toEqual([notes]);
  await page.unroute("**/api/pins", unavailable);
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(pending).toBeHidden();
  expect(await pinsWithNotes(page, rep.id, notes)).toHaveLength(1);
});

test("a door becomes a lead: the form is prefilled, pin and lead link each other", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep");
  const rep = demoUser("sales_rep");
  await openMapNearAPin(page);
  await page.getByRole("button", { name: "Log knock" }).click();
  await tapMap(page, 0.6, 0.65);
  const notes = `Wants a quote ${unique()}`;
  await knockSheet(page).getByLabel("Notes (optional)").fill(notes);
  await knockSheet(page).getByText("Address (optional)").click();
  await knockSheet(page).getByLabel("Street").fill("48 Lead Street");
  await knockSheet(page).getByLabel("ZIP").fill("78701");
  await knockSheet(page).getByRole("group", { name: "Outcome" }).getByRole("button").first().click();
  await expect(toasts(page)).toContainText("Knock saved");
  const [pin] = await pinsWithNotes(page, rep.id, notes);

  await page.goto(`/map?pin=${encodeURIComponent(pin!.id)}`);
  const sheet = page.getByTestId("pin-sheet");
  await sheet.getByRole("button", { name: "Create lead" }).click();
  const form = page.getByRole("dialog", { name: "New lead from this door" });
  await expect(form.getByLabel("Street", { exact: true })).toHaveValue("48 Lead Street");
  await expect(form.getByLabel("Notes")).toHaveValue(notes);
  const name = `Door Lead ${unique()}`;
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Save lead" }).click();
  await expect(form).toBeHidden();
  await expect(sheet.getByTestId("pin-lead-link")).toHaveText(name);

  const linked = (await apiGet<{ data: ApiPinDetail }>(page, `/pins/${pin!.id}`)).data;
  expect(linked.lead_id).toBeTruthy();
  await sheet.getByTestId("pin-lead-link").click();
  await expect(page).toHaveURL(new RegExp(`/leads/${linked.lead_id}`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  await expect(page.getByTestId("lead-pin-map")).toBeVisible();
  await expect(page.getByTestId("lead-pin-map").locator(".leaflet-container")).toBeVisible();
  await screenshotBoth(page, "lead-pin-map");
});

test("on a phone the knock sheet is a bottom sheet with thumb-sized controls", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "technician", { next: false });
  await openMapNearAPin(page);
  const log = page.getByRole("button", { name: "Log knock" });
  const logBox = (await log.boundingBox())!;
  expect(logBox.height).toBeGreaterThanOrEqual(44);
  // The legend starts folded and does not cover the action.
  await expect(page.getByRole("button", { name: /^Legend/ })).toHaveAttribute("aria-expanded", "false");
  const legend = (await page.getByTestId("map-legend").boundingBox())!;
  expect(legend.y + legend.height).toBeLessThan(logBox.y);

  await log.click();
  await tapMap(page, 0.5, 0.25);
  const sheet = (await knockSheet(page).boundingBox())!;
  expect(sheet.width).toBe(390);
  expect(Math.round(sheet.y + sheet.height)).toBe(844);
  const sizes = await knockSheet(page)
    .getByRole("button")
    .evaluateAll((els) => els.map((e) => [e.textContent, e.getBoundingClientRect().height] as const));
  for (const [label, height] of sizes) expect(height, `${label} button`).toBeGreaterThanOrEqual(44);
  await expectNoPageScrollX(page);
});

test("the navigation's Map entry counts the changes waiting on the device, at 1440 and 390 px", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep");
  const rep = demoUser("sales_rep");
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  // Three changes wait that the API refuses: a page other than the map sends them in the
  // background and keeps what is refused for the map to show, so the count stays.
  await page.goto("/leads");
  await seedKnocks(page, rep.id, [
    { client_id: `e2e-${unique()}`, location: [30.27, -97.74], pin_type_id: "pt_x", logged_at: at(3) },
    { client_id: `e2e-${unique()}`, location: [30.28, -97.74], pin_type_id: "pt_x", logged_at: at(2) },
    { kind: "outcome", client_id: `e2e-${unique()}`, pin_id: "pin_x", pin_type_id: "pt_x", logged_at: at(1) },
  ]);
  await page.reload();

  await page.setViewportSize({ width: 1440, height: 900 });
  const main = page.getByRole("navigation", { name: "Main" });
  const mapLink = main.getByRole("link", { name: "Map, 3 changes waiting to be sent" });
  await expect(mapLink).toBeVisible();
  await expect(mapLink.getByTestId("nav-pending")).toHaveText("3");
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    // At 1440 px the sidebar's entry; at 390 px the menu's button.
    await screenshotBoth(page, `nav-pending-${theme}`, { fullPage: false });
    const results = await axe(page).include("aside").analyze();
    expect(
      results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
      theme,
    ).toEqual([]);
  }

  // On a phone the menu's button shows the count; the open menu shows it on the Map entry.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "light" });
  const menuButton = page.getByRole("button", { name: "Open menu (3 changes waiting to be sent)" });
  await expect(menuButton.getByTestId("menu-pending")).toHaveText("3");
  await menuButton.click();
  const phoneLink = page
    .locator("#mobile-menu")
    .getByRole("link", { name: "Map, 3 changes waiting to be sent" });
  await expect(phoneLink.getByTestId("nav-pending")).toBeVisible();
  const box = (await phoneLink.getByTestId("nav-pending").boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await screenshotBoth(page, `nav-pending-menu-${theme}`, { fullPage: false });
    const results = await axe(page).include("header").analyze();
    expect(
      results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
      theme,
    ).toEqual([]);
  }
  await expectNoPageScrollX(page);

  // Once nothing waits, neither badge shows.
  await page.emulateMedia({ colorScheme: "light" });
  await page.evaluate((key) => localStorage.removeItem(key), `knocks-pending:${rep.id}`);
  await page.reload();
  await expect(page.getByRole("button", { name: "Open menu", exact: true })).toBeVisible();
  await expect(page.getByTestId("menu-pending")).toHaveCount(0);
});

test("changes made offline are sent from any page when the app opens; a refusal waits for the map", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "sales_rep");
  const rep = demoUser("sales_rep");
  const types = await pinTypes(page);
  const notes = `Sent from the leads page ${unique()}`;
  // The tab was closed with two knocks queued; the rep opens the app on the leads list.
  await page.goto("/leads");
  await seedKnocks(page, rep.id, [
    {
      client_id: `e2e-${unique()}`,
      location: [30.27, -97.74],
      pin_type_id: types[0]!.id,
      notes,
      logged_at: new Date(Date.now() - 120_000).toISOString(),
    },
    {
      client_id: `e2e-${unique()}`,
      location: [30.28, -97.74],
      pin_type_id: "no-such-type",
      logged_at: new Date(Date.now() - 60_000).toISOString(),
    },
  ]);
  await page.reload();
  const mapLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Map/ });
  // The good knock is sent once; the refused one still waits on the device.
  await expect.poll(async () => (await pinsWithNotes(page, rep.id, notes)).length).toBe(1);
  await expect(mapLink.getByTestId("nav-pending")).toHaveText("1");
  expect((await storedKnocks(page, rep.id)).map((k) => k.notes)).toEqual([undefined]);
  // Another "online" sends nothing twice.
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(mapLink.getByTestId("nav-pending")).toHaveText("1");
  expect(await pinsWithNotes(page, rep.id, notes)).toHaveLength(1);

  // The map says why the other one was not sent, and it leaves the queue.
  await mapLink.click();
  await mapLoaded(page);
  await expect(toasts(page).getByText("Knock not sent")).toBeVisible();
  await expect(mapLink.getByTestId("nav-pending")).toHaveCount(0);
  expect(await storedKnocks(page, rep.id)).toEqual([]);
});

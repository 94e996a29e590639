import { expect, test, type Page } from "@playwright/test";
import { API_HEADERS, screenshotBoth, signIn, unique } from "./helpers";

// Pin types in settings: add, recolor, keyboard reorder, remove; too-close colors are flagged and
// a type in use cannot be removed (409 PIN_TYPE_IN_USE).

interface PinType {
  id: string;
  label: string;
  color: string;
}

async function pinTypes(page: Page): Promise<PinType[]> {
  const res = await page.request.get("/api/pin-types", { headers: API_HEADERS });
  expect(res.ok()).toBe(true);
  const { data } = (await res.json()) as { data: (PinType & { position?: number })[] };
  return data.sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
}

const section = (page: Page) => page.getByRole("form", { name: "Pin types" });

test("an admin adds, reorders and removes a pin type; a type in use stays", async ({ page }) => {
  await signIn(page, "admin", { next: "/settings" });
  const before = await pinTypes(page);
  const form = section(page);
  await expect(form.getByRole("listitem")).toHaveCount(before.length);
  await screenshotBoth(page, "settings-pin-types");

  // Add a type at the end, then move it up to second place with the keyboard.
  const label = `Gate locked ${unique()}`;
  await form.getByRole("button", { name: "Add pin type" }).click();
  const nameInput = form.getByLabel(`Name of pin type ${before.length + 1}`);
  await expect(nameInput).toBeFocused();
  await nameInput.fill(label);
  await form.getByLabel(`Color of ${label}`).fill("#0891b2");
  const up = form.getByRole("button", { name: `Move ${label} up` });
  for (let i = before.length; i > 1; i--) {
    await up.focus();
    await page.keyboard.press("Enter");
  }
  await expect(form.getByRole("listitem").nth(1)).toHaveAttribute("aria-label", label);
  await form.getByRole("button", { name: "Save pin types" }).click();
  await expect(page.getByRole("region", { name: "Notifications" })).toContainText("Pin types saved");
  const saved = await pinTypes(page);
  expect(saved.map((t) => t.label)).toEqual([
    before[0]!.label,
    label,
    ...before.slice(1).map((t) => t.label),
  ]);

  // The map's knock sheet offers the types in that order.
  await page.goto("/map");
  await expect(page.getByTestId("pin-map")).toHaveAttribute("data-loading", "false", { timeout: 60_000 });
  await page.getByRole("button", { name: "Log knock" }).click();
  // The outcomes show once the knock has a place: a tap on the map.
  const container = page.getByTestId("pin-map").locator(".leaflet-container");
  const box = (await container.boundingBox())!;
  await container.click({ position: { x: Math.round(box.width * 0.7), y: Math.round(box.height * 0.3) } });
  await expect(
    page.getByTestId("knock-sheet").getByRole("group", { name: "Outcome" }).getByRole("button"),
  ).toHaveText(saved.map((t) => t.label));
  await page.getByTestId("knock-sheet").getByRole("button", { name: "Close" }).click();
  await page.goto("/settings");

  // A color too close to another's is flagged before saving.
  await section(page).getByLabel(`Color of ${label}`).fill(before[0]!.color);
  await expect(section(page).getByTestId("pin-types-close-colors")).toContainText(
    `${before[0]!.label} and ${label}`,
  );
  await screenshotBoth(page, "settings-pin-types-close-colors");
  await section(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(section(page).getByTestId("pin-types-close-colors")).toBeHidden();

  // A type with pins cannot go: the API's 409 shows in the form, nothing changes.
  await section(page)
    .getByRole("button", { name: `Remove ${before[0]!.label}` })
    .click();
  await section(page).getByRole("button", { name: "Save pin types" }).click();
  await expect(section(page).getByTestId("pin-types-error")).toBeVisible();
  await screenshotBoth(page, "settings-pin-types-in-use");
  expect((await pinTypes(page)).map((t) => t.id)).toEqual(saved.map((t) => t.id));
  await section(page).getByRole("button", { name: "Discard changes" }).click();

  // The new type has no pins: it goes.
  await section(page)
    .getByRole("button", { name: `Remove ${label}` })
    .click();
  await section(page).getByRole("button", { name: "Save pin types" }).click();
  await expect(page.getByRole("region", { name: "Notifications" })).toContainText("Pin types saved");
  expect((await pinTypes(page)).map((t) => t.id)).toEqual(before.map((t) => t.id));
});

test("only admins manage pin types", async ({ page }) => {
  await signIn(page, "manager", { next: false });
  const res = await page.request.put("/api/settings/pin-types", {
    headers: API_HEADERS,
    data: { pin_types: [] },
  });
  expect(res.status()).toBe(403);
});

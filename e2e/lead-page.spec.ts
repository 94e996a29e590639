import { expect, test, type Page } from "@playwright/test";
import {
  API_HEADERS,
  expectAccessible,
  expectNoPageScrollX,
  screenshotBoth,
  signIn,
  unique,
} from "./helpers";

// The lead page opens on the work (issue #52, finding 6): the stage bar moves the lead in one
// click, Lost asks for a reason from the admin's list, and the edit form waits behind Edit.

const stageBar = (page: Page) => page.getByRole("group", { name: "Move this lead to" });
const stage = (page: Page, label: string) => stageBar(page).getByRole("button", { name: label, exact: true });
const entries = (page: Page) =>
  page.getByRole("list", { name: /^Activity of this/ }).getByTestId("activity-entry");

async function dismissToasts(page: Page) {
  const close = page.getByRole("button", { name: "Dismiss notification" });
  while ((await close.count()) > 0) await close.first().click();
}

/** Light and dark at both widths, no sideways scroll on a phone, axe in both themes. */
async function lookAt(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBoth(page, name, options);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);
  await screenshotBoth(page, `${name}-dark`, options);
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPageScrollX(page);
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("a rep moves a lead with the stage bar, marks it lost with a reason, and edits behind Edit", async ({
  page,
}) => {
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const name = `Stage Bar ${id}`;
  const res = await page.request.post("/api/leads", {
    headers: API_HEADERS,
    data: { name, stage: "quoted", follow_up_date: "2031-04-15", projected_value: 900 },
  });
  expect(res.status()).toBe(201);
  const lead = (await res.json()) as { id: string };
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/leads/${lead.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);

  // What the user does first: the stage, the next follow-up, notes and activity; no form yet.
  await expect(stage(page, "Quoted")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("lead-follow-up")).toContainText("2031");
  await expect(page.getByRole("form", { name: "Add a note" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Edit lead" })).toHaveCount(0);
  // On a phone, the note box is within the first two screens, not under a form.
  await page.setViewportSize({ width: 390, height: 844 });
  const noteTop = (await page.getByRole("form", { name: "Add a note" }).boundingBox())?.y ?? Infinity;
  expect(noteTop).toBeLessThan(2 * 844);
  await page.setViewportSize({ width: 1440, height: 900 });
  await lookAt(page, "lead-page");

  // One click: the lead moves, through POST /api/leads, and the timeline says so.
  await stage(page, "Contacted").click();
  await expect(stage(page, "Contacted")).toHaveAttribute("aria-pressed", "true");
  await expect(entries(page).first()).toContainText("Stage: Quoted → Contacted");

  // Lost asks why, from the admin's list (the demo's defaults); a reason is required.
  await stage(page, "Lost").click();
  const dialog = page.getByRole("dialog", { name: `Mark ${name} as lost` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: "Price too high" })).toBeFocused();
  await dialog.getByRole("button", { name: "Move to Lost" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Choose why the lead was lost");
  await expect(stage(page, "Contacted")).toHaveAttribute("aria-pressed", "true");
  await dialog.getByRole("radio", { name: "Chose a competitor" }).check();
  await lookAt(page, "lost-reason-dialog", { fullPage: false });
  await dialog.getByRole("button", { name: "Move to Lost" }).click();
  await expect(dialog).toBeHidden();
  await expect(stage(page, "Lost")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("lead-lost-reason")).toContainText("Chose a competitor");
  await expect(entries(page).first()).toContainText("Lost reason: — → Chose a competitor");
  const stored = await page.request.get(`/api/leads/${lead.id}`, { headers: API_HEADERS });
  expect(((await stored.json()) as { data: { stage: string; lost_reason: string } }).data).toMatchObject({
    stage: "lost",
    lost_reason: "Chose a competitor",
  });
  await dismissToasts(page);
  await lookAt(page, "lead-page-lost");

  // Edit opens the form (create-or-update, as before) with the keyboard in its first field.
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const form = page.getByRole("form", { name: "Edit lead" });
  await expect(form.getByLabel("Name", { exact: true })).toBeFocused();
  await form.getByLabel("Notes").fill(`Edited ${id}`);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Lead updated" })).toBeVisible();
  // Cancel on a clean form closes it and gives the focus back to Edit.
  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit", exact: true })).toBeFocused();
});

test("an admin keeps the lost reasons in settings, next to the pipeline", async ({ page }) => {
  const id = unique();
  await signIn(page, "admin", { next: "/settings" });
  const section = page.getByRole("region", { name: "Lost reasons" });
  const reasons = section.getByRole("textbox", { name: /^Lost reason \d+$/ });
  await expect(reasons.first()).toHaveValue("Price too high");
  const before = await reasons.count();

  await section.getByRole("button", { name: "Add reason" }).click();
  await expect(reasons.nth(before)).toBeFocused();
  await page.keyboard.type(`Moved away ${id}`);
  await section.getByRole("button", { name: "Save lost reasons" }).click();
  await expect(
    page.getByRole("region", { name: "Notifications" }).getByText("Lost reasons saved"),
  ).toBeVisible();
  const listed = await page.request.get("/api/lost-reasons", { headers: API_HEADERS });
  expect(((await listed.json()) as { data: { label: string }[] }).data.map((r) => r.label)).toContain(
    `Moved away ${id}`,
  );
  await section.scrollIntoViewIfNeeded();
  await expectAccessible(page);

  // Taken out again, so the list stays as the other tests expect it.
  await section.getByRole("button", { name: `Remove Moved away ${id}` }).click();
  await section.getByRole("button", { name: "Save lost reasons" }).click();
  await expect(reasons).toHaveCount(before);
});

import { expect, test, type Page } from "@playwright/test";
import { API_HEADERS, screenshotBoth, signIn, unique } from "./helpers";

// The leads pages as a sales rep uses them: create, find, edit with merged tags, matching "new"
// leads, the archived filter, and a view that survives reload via the URL.

const table = (page: Page) => page.getByRole("table", { name: "Leads" });
const total = (page: Page) => page.getByTestId("table-total");
/** The table has its rows for the current view (while a page loads, the previous rows stay shown). */
const settled = (page: Page) => expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

/** A phone number no demo lead has: 10 digits starting with 9, shown with punctuation. */
function uniquePhone() {
  const digits = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  return { digits, display: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` };
}

async function search(page: Page, term: string) {
  await page.getByLabel("Search", { exact: true }).fill(term);
  // The box applies its value after a pause in typing; the URL says when it has.
  await expect(page).toHaveURL(
    new RegExp(`[?&]search=${encodeURIComponent(term).replace(/%20/g, "(\\+|%20)")}`),
  );
}

test.beforeEach(async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
});

test("create a lead, find it by name and phone digits, edit it and see tags merged @smoke", async ({
  page,
}) => {
  const id = unique();
  const name = `Pat Prospect ${id}`;
  const phone = uniquePhone();

  await page.goto("/leads");
  await expect(table(page).getByRole("row").nth(1)).toBeVisible();
  await screenshotBoth(page, "list");

  // New lead, in a dialog over the table.
  await page.getByRole("button", { name: "New lead" }).click();
  const dialog = page.getByRole("dialog", { name: "New lead" });
  // Typing starts in the first field.
  await expect(dialog.getByLabel("Name", { exact: true })).toBeFocused();
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Email").fill(`pat.${id}@example.test`);
  await dialog.getByLabel("Phone").fill(phone.display);
  await dialog.getByLabel("Stage").selectOption("contacted");
  await dialog.getByLabel("Priority").selectOption("high");
  await dialog.getByLabel("Projected value ($)").fill("1234.5");
  await dialog.getByLabel("City").fill("Austin");
  await dialog.getByLabel("Tags").fill(`e2e-alpha-${id}, spring`);
  await screenshotBoth(page, "new-lead-dialog", { fullPage: false });

  // A pasted value past a field's limit is kept whole, counted and refused, never cut.
  const city = dialog.getByLabel("City");
  await city.fill("A".repeat(300));
  await expect(city).toHaveValue("A".repeat(300));
  await expect(dialog.getByText("45 characters over the limit of 255: shorten it to save")).toBeVisible();
  await city.fill("A".repeat(250));
  await expect(dialog.getByText("250 / 255 characters")).toBeVisible();
  await city.fill("Austin");
  await expect(dialog.getByText(/\/ 255 characters/)).toHaveCount(0);
  // A phone needs digits.
  await dialog.getByLabel("Phone").fill("call me");
  await dialog.getByRole("button", { name: "Save lead" }).click();
  await expect(dialog.getByText("A phone number needs digits")).toBeVisible();
  await dialog.getByLabel("Phone").fill(phone.display);

  // The form checks with the API's schema before sending: a bad email stays in the form.
  await dialog.getByLabel("Email").fill("not-an-email");
  await dialog.getByRole("button", { name: "Save lead" }).click();
  await expect(dialog.getByText("must be a valid email address")).toBeVisible();
  await dialog.getByLabel("Email").fill(`pat.${id}@example.test`);
  await dialog.getByRole("button", { name: "Save lead" }).click();

  await expect(dialog).toBeHidden();
  const created = page.getByRole("status").filter({ hasText: "Lead created" });
  await expect(created).toBeVisible();
  // The table shows the new lead without a reload (newest first).
  await expect(table(page).getByRole("link", { name })).toBeVisible();

  // Found by a case-insensitive name substring...
  await search(page, `prospect ${id}`);
  await expect(total(page)).toHaveText(/of 1 lead$/);
  await expect(table(page).getByRole("link", { name })).toBeVisible();
  // ...and by the phone's digits alone, although it was entered with punctuation.
  await search(page, phone.digits.slice(3));
  await expect(total(page)).toHaveText(/of 1 lead$/);
  await expect(table(page).getByRole("row").nth(1)).toContainText(phone.display);

  // Its page: facts and the edit form. New tags are added to the existing ones.
  await table(page).getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/leads\/lead_/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  await expect(page.getByTestId("lead-tags").getByRole("listitem")).toHaveText([`e2e-alpha-${id}`, "spring"]);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByLabel("Add tags").fill(`spring, e2e-beta-${id}`);
  await page.getByLabel("Stage").selectOption({ label: "Quoted" });
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Lead updated" })).toBeVisible();
  await expect(page.getByTestId("lead-tags").getByRole("listitem")).toHaveText([
    `e2e-alpha-${id}`,
    "spring",
    `e2e-beta-${id}`,
  ]);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Quoted");
  await screenshotBoth(page, "detail");

  // "All leads" returns to the list as it was left (the phone search).
  await page.getByRole("link", { name: "All leads" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/leads\\?search=${phone.digits.slice(3)}$`));
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue(phone.digits.slice(3));
  // A "new" lead with the same phone (other punctuation) updates this one, once confirmed.
  await page.getByRole("button", { name: "New lead" }).click();
  await dialog.getByLabel("Name", { exact: true }).fill(`${name} again`);
  await dialog
    .getByLabel("Phone")
    .fill(`+1 ${phone.digits.slice(0, 3)}.${phone.digits.slice(3, 6)}.${phone.digits.slice(6)}`);
  await dialog.getByLabel("Tags").fill(`e2e-gamma-${id}`);
  await dialog.getByRole("button", { name: "Save lead" }).click();
  // The form asks first (e2e/safe-create.spec.ts covers the choices): update the existing lead.
  await page
    .getByRole("dialog", { name: /already exists/ })
    .getByRole("button", { name: `Update ${name}` })
    .click();
  const matched = page
    .getByRole("status")
    .filter({ hasText: "Updated existing lead (matched by phone/email)" });
  await expect(matched).toBeVisible();
  await expect(matched.getByRole("list", { name: "Tags after saving" }).getByRole("listitem")).toHaveText([
    `e2e-alpha-${id}`,
    "spring",
    `e2e-beta-${id}`,
    `e2e-gamma-${id}`,
  ]);
  await screenshotBoth(page, "matched-existing");
  // Still one lead with that phone, now under the new name, in the table without a reload.
  await search(page, phone.digits);
  await expect(total(page)).toHaveText(/of 1 lead$/);
  await expect(table(page).getByRole("link", { name: `${name} again` })).toBeVisible();
});

test("archived leads show only with Show archived", async ({ page }) => {
  // Any archived demo lead (asked through the API with this session).
  const res = await page.request.get("/api/leads?archived=true&limit=1000", { headers: API_HEADERS });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { data: { id: string; name: string; archived: boolean }[] };
  const archived = body.data.find((lead) => lead.archived && lead.name);
  expect(archived, "the demo data has an archived lead").toBeDefined();
  const selector = `a[href="/leads/${archived!.id}"]`;
  const link = (page: Page) => table(page).locator(selector);

  await page.goto(`/leads?search=${encodeURIComponent(archived!.name)}`);
  await expect(total(page)).not.toHaveText(/Counting/);
  await expect(link(page)).toHaveCount(0);

  await page.getByLabel("Show archived").check();
  await expect(page).toHaveURL(/archived=true/);
  await expect(link(page)).toBeVisible();
  await expect(
    table(page)
      .getByRole("row")
      .filter({ has: page.locator(selector) }),
  ).toContainText("Archived");
  await screenshotBoth(page, "archived");

  await page.getByLabel("Show archived").uncheck();
  await expect(page).not.toHaveURL(/archived=/);
  await expect(link(page)).toHaveCount(0);
});

test("the view lives in the URL: a reload restores page, size and filters", async ({ page }) => {
  await page.goto("/leads");
  await page.getByLabel("Rows per page").selectOption("25");
  await expect(page).toHaveURL(/limit=25/);
  await expect(table(page).getByRole("row")).toHaveCount(26);
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^Page 2 of/)).toBeVisible();
  await settled(page);
  const secondPageFirst = await table(page).getByRole("row").nth(1).getByRole("link").first().textContent();

  await page.reload();
  await expect(page.getByLabel("Rows per page")).toHaveValue("25");
  await expect(page.getByText(/^Page 2 of/)).toBeVisible();
  await expect(table(page).getByRole("row").nth(1).getByRole("link").first()).toHaveText(secondPageFirst!);

  // Filters: a changed filter goes back to page 1, and all of it survives a reload.
  const stage = page.getByLabel("Stage");
  const stageValue = await stage.locator("option").nth(1).getAttribute("value");
  await stage.selectOption(stageValue!);
  await page.getByRole("textbox", { name: "Tags", exact: true }).fill("vip, referral");
  await expect(page).toHaveURL(/tags=vip/);
  await search(page, "a");
  await page.getByLabel("Show archived").check();
  await expect(page).not.toHaveURL(/page=2/);

  await page.reload();
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("a");
  await expect(page.getByLabel("Stage")).toHaveValue(stageValue!);
  await expect(page.getByRole("textbox", { name: "Tags", exact: true })).toHaveValue("vip, referral");
  await expect(page.getByLabel("Show archived")).toBeChecked();
  await expect(page.getByLabel("Rows per page")).toHaveValue("25");

  // Each filter change is a history entry: Back walks them in reverse, Forward again.
  await page.goBack();
  await expect(page.getByLabel("Show archived")).not.toBeChecked();
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("a");
  await page.goBack();
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("");
  await expect(page.getByRole("textbox", { name: "Tags", exact: true })).toHaveValue("vip, referral");
  // One step at a time: a second traversal started before the first has settled aborts it.
  await page.goForward();
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("a");
  await expect(page.getByLabel("Show archived")).not.toBeChecked();
  await page.goForward();
  await expect(page.getByLabel("Show archived")).toBeChecked();

  // A shared link with no match shows the empty state, and "Clear filters" resets the view.
  await page.goto("/leads?search=zz-no-such-lead-zz");
  await expect(page.getByText("No leads match these filters")).toBeVisible();
  await screenshotBoth(page, "empty");
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/leads$/);
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("");

  // Clearing the list's filters and the page's own (owner, follow-up) is one history entry, and
  // Back at once shows the view it left.
  await page.goto("/leads?search=a&assigned_to=none&due=overdue");
  await expect(page.getByLabel("Owner")).toHaveValue("none");
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/leads$/);
  await expect(page.getByLabel("Owner")).toHaveValue("");
  await page.goBack();
  await expect(page).toHaveURL(/search=a&assigned_to=none&due=overdue/);
  await expect(page.getByLabel("Owner")).toHaveValue("none");
  await page.goto("/leads?assigned_to=none");
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/leads$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/leads\?assigned_to=none$/);
});

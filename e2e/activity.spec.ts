import { expect, test, type Page } from "@playwright/test";
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

// A record's story (issue 42): the timeline shows edits, notes and archive/Undo; converting links
// or creates a customer; a technician reads it without note box or archive button.

/** A phone number no demo record has, as its digits. */
const uniqueDigits = () => `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
const dashed = (d: string) => `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
const parenthesized = (d: string) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;

async function apiPost(page: Page, path: string, body: unknown): Promise<{ id: string }> {
  const res = await page.request.post(`/api${path}`, { headers: API_HEADERS, data: body });
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return (await res.json()) as { id: string };
}

const timeline = (page: Page) => page.getByRole("list", { name: /^Activity of this/ });
const entries = (page: Page) => timeline(page).getByTestId("activity-entry");
const noteBox = (page: Page) => page.getByRole("form", { name: "Add a note" });

/** Closes the toasts, so that a screenshot shows the page under them. */
async function dismissToasts(page: Page) {
  const close = page.getByRole("button", { name: "Dismiss notification" });
  while ((await close.count()) > 0) await close.first().click();
}

/** Screenshots at both widths (toasts closed), no sideways scroll on a phone, axe in both themes. */
async function lookAtPage(page: Page, name: string) {
  await dismissToasts(page);
  await screenshotBoth(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPageScrollX(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessibleBothThemes(page);
}

/** No serious axe violation in the light and the dark theme. */
async function expectAccessibleBothThemes(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "light" });
}

test("a lead's timeline: an edit with who made it, a note, archive and Undo", async ({ page }) => {
  const rep = demoUser("sales_rep");
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const lead = await apiPost(page, "/leads", {
    name: `Casey Timeline ${id}`,
    stage: "new",
    projected_value: 1500,
    tags: ["spring"],
  });
  await page.goto(`/leads/${lead.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Casey Timeline ${id}`);
  await expect(entries(page)).toHaveCount(1);
  await expect(entries(page).first()).toContainText("created the lead");

  // Edit the stage in the form (behind Edit): the timeline shows it at once, with the user's name.
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByLabel("Stage").selectOption({ label: "Contacted" });
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(entries(page)).toHaveCount(2);
  const edit = entries(page).first();
  await expect(edit).toContainText(`${rep.name} changed`);
  await expect(edit).toContainText("Stage: New → Contacted");
  await expect(edit.locator("time")).toHaveText("just now");
  await expect(edit.locator("time")).toHaveAttribute("title", /\d/);

  // A note: an empty one is refused with a message; Ctrl+Enter adds one.
  await noteBox(page).getByRole("button", { name: "Add note" }).click();
  await expect(noteBox(page)).toContainText("Write a note first");
  await noteBox(page).getByLabel("Note").fill(`Called, wants a quote ${id}`);
  await noteBox(page).getByLabel("Note").press("Control+Enter");
  await expect(entries(page)).toHaveCount(3);
  await expect(entries(page).first()).toContainText(`${rep.name} added a note`);
  await expect(entries(page).first()).toContainText(`Called, wants a quote ${id}`);
  await expect(noteBox(page).getByLabel("Note")).toHaveValue("");

  // Archive, then Undo from the toast.
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toContainText("Archived");
  const toast = page.getByRole("region", { name: "Notifications" });
  await expect(toast).toContainText(`Archived Casey Timeline ${id}`);
  // The edit's own toast (with its Undo) may still show: the archive's is the one named so.
  await toast
    .locator(":scope > div")
    .filter({ hasText: `Archived Casey Timeline ${id}` })
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(heading).not.toContainText("Archived");
  await expect(page.getByRole("button", { name: "Archive", exact: true })).toBeVisible();
  await expect(entries(page)).toHaveCount(5);
  await expect(entries(page).nth(0)).toContainText("unarchived the lead");
  await expect(entries(page).nth(1)).toContainText("archived the lead");

  await lookAtPage(page, "lead-page");

  // The leads list finds the lead by its note's text, in the Notes filter.
  await page.goto("/leads");
  await page.getByLabel("Notes").fill(`WANTS A QUOTE ${id}`);
  await expect(page).toHaveURL(new RegExp(`note=WANTS`));
  await expect(page.getByRole("link", { name: `Casey Timeline ${id}` }).first()).toBeVisible();
  await page.getByLabel("Notes").fill(`no such note ${id}`);
  await expect(page.getByRole("link", { name: `Casey Timeline ${id}` })).toHaveCount(0);
});

test("convert a lead to a new customer: links both ways", async ({ page }) => {
  // Two pages and the dialog, each checked by axe in both themes.
  test.setTimeout(120_000);
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const digits = uniqueDigits();
  const lead = await apiPost(page, "/leads", {
    name: `Morgan Lee Convert${id}`,
    phone: dashed(digits),
    email: `morgan.${id}@example.com`,
    address_street1: "1200 Barton Springs Rd",
    address_city: "Austin",
    address_state: "TX",
    address_zip: "78704",
    stage: "quoted",
    tags: ["referral"],
    notes: "Gate code 4411",
  });
  await page.goto(`/leads/${lead.id}`);
  await page.getByRole("button", { name: "Convert to customer" }).click();
  const dialog = page.getByRole("dialog", { name: "Convert to customer" });
  await expect(dialog).toBeVisible();
  // The form starts from the lead: the name split at its last word, address, contact, notes, tags.
  await expect(dialog.getByLabel("First name")).toHaveValue("Morgan Lee");
  await expect(dialog.getByLabel("First name")).toBeFocused();
  await expect(dialog.getByLabel("Last name")).toHaveValue(`Convert${id}`);
  await expect(dialog.getByLabel("Phone")).toHaveValue(dashed(digits));
  await expect(dialog.getByLabel("Email")).toHaveValue(`morgan.${id}@example.com`);
  await expect(dialog.getByRole("group", { name: "Property address" }).getByLabel("City")).toHaveValue(
    "Austin",
  );
  await expect(dialog.getByLabel("Notes")).toHaveValue("Gate code 4411");
  await expect(dialog).toContainText("referral");
  await expect(dialog.getByLabel("Billing same as property")).toBeChecked();
  await screenshotBoth(page, "convert-dialog", { fullPage: false });
  await expectAccessibleBothThemes(page);

  await dialog.getByRole("button", { name: "Convert to customer" }).click();
  await expect(page).toHaveURL(/\/customers\/[^/]+$/);
  const customerId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Morgan Lee Convert${id}`);
  await expect(page.getByTestId("customer-lead-link")).toHaveText(`Morgan Lee Convert${id}`);
  await expect(entries(page).first()).toContainText("created the customer from a lead");
  await lookAtPage(page, "customer-page");

  // Back to the lead: it links its customer and offers no second conversion.
  await page.getByTestId("customer-lead-link").click();
  await expect(page).toHaveURL(new RegExp(`/leads/${lead.id}$`));
  await expect(page.getByTestId("lead-customer-link")).toHaveText(`Morgan Lee Convert${id}`);
  await expect(page.getByTestId("lead-customer-link")).toHaveAttribute("href", `/customers/${customerId}`);
  await expect(page.getByRole("button", { name: "Convert to customer" })).toHaveCount(0);
  await expect(entries(page).first()).toContainText("converted the lead to a customer");
  await screenshotBoth(page, "lead-converted");
});

test("convert a won lead from the board: its phone matches a customer, which is linked", async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
  // A customer, and a won lead with the same phone in another format.
  const [id, digits] = [unique(), uniqueDigits()];
  const customer = await apiPost(page, "/customers", {
    first_name: "Jordan",
    last_name: `Existing${id}`,
    phone: parenthesized(digits),
  });
  const lead = await apiPost(page, "/leads", {
    name: `Jordan Won${id}`,
    phone: dashed(digits),
    stage: "won",
  });

  await page.goto(`/leads?view=board&search=${id}`);
  const won = page.getByRole("region", { name: "Won", exact: true });
  await won.getByRole("button", { name: `Convert to customer: Jordan Won${id}` }).click();
  const dialog = page.getByRole("dialog", { name: "Convert to customer" });
  await dialog.getByRole("button", { name: "Convert to customer" }).click();

  // The dry run found the customer by phone: link to it (or create a new one).
  const ask = page.getByRole("dialog", { name: "A customer with this phone number already exists" });
  await expect(ask).toBeVisible();
  await expect(ask.getByRole("button", { name: "Create a new customer" })).toBeVisible();
  await screenshotBoth(page, "convert-match", { fullPage: false });
  await ask.getByRole("button", { name: `Link to Jordan Existing${id}` }).click();

  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}$`));
  await expect(page.getByTestId("customer-lead-link")).toHaveText(`Jordan Won${id}`);
  await page.goto(`/leads/${lead.id}`);
  await expect(page.getByTestId("lead-customer-link")).toHaveText(`Jordan Existing${id}`);
});

test("a technician reads a customer's timeline without the note box or archive", async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const lead = await apiPost(page, "/leads", { name: `Riley Tech${id}`, stage: "won" });
  const converted = await page.request.post(`/api/leads/${lead.id}/convert`, { headers: API_HEADERS });
  expect(converted.status()).toBe(201);
  const customerId = ((await converted.json()) as { data: { id: string } }).data.id;

  const tech = await newUserPage(page.context().browser()!);
  await signIn(tech, "technician", { next: false });
  await tech.goto(`/customers/${customerId}`);
  await expect(tech.getByRole("heading", { level: 1 })).toContainText(`Riley Tech${id}`);
  await expect(entries(tech).first()).toContainText("created the customer from a lead");
  await expect(tech.getByRole("heading", { name: "Activity" })).toBeVisible();
  await expect(noteBox(tech)).toHaveCount(0);
  // It cannot open leads: no link to one.
  await expect(tech.getByRole("link", { name: "Open the lead" })).toHaveCount(0);
  await expect(tech.getByRole("button", { name: /^(Archive|Unarchive)$/ })).toHaveCount(0);
  await screenshotBoth(tech, "customer-page-technician");
  await expectAccessibleBothThemes(tech);
  await tech.context().close();
});

test("a long history pages: the newest 20 entries, then Show older", async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const lead = await apiPost(page, "/leads", { name: `Paging Lead${id}`, stage: "new" });
  for (let n = 1; n <= 21; n++) await apiPost(page, `/leads/${lead.id}/notes`, { body: `Note ${n} ${id}` });

  await page.goto(`/leads/${lead.id}`);
  await expect(page.getByText("22 entries, newest first.")).toBeVisible();
  await expect(entries(page)).toHaveCount(20);
  await expect(entries(page).first()).toContainText(`Note 21 ${id}`);
  await page.getByRole("button", { name: "Show older" }).click();
  await expect(entries(page)).toHaveCount(22);
  await expect(entries(page).last()).toContainText("created the lead");
  await expect(page.getByRole("button", { name: "Show older" })).toHaveCount(0);
});

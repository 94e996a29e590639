import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  API_HEADERS,
  demoUser,
  expectAccessible,
  expectNoPageScrollX,
  screenshotBoth,
  signIn,
  unique,
} from "./helpers";

// "New lead" / "New customer" matching an existing phone: the form asks first, showing both
// records; update, create separately, or go back; an update offers Undo.

/** A phone number no demo record has, as its digits. */
const uniqueDigits = () => `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
const dotted = (d: string) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
const parenthesized = (d: string) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;

const matchDialog = (page: Page) => page.getByRole("dialog", { name: /already exists/ });
/** A field's line in the match dialog: its name, the existing value and the value after. */
const fieldRow = (dialog: Locator, key: string) => dialog.locator(`li[data-field="${key}"]`);

async function apiGet<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(`/api${path}`, { headers: API_HEADERS });
  expect(res.ok(), path).toBe(true);
  return (await res.json()) as T;
}

async function apiPost(page: Page, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await page.request.post(`/api${path}`, { headers: API_HEADERS, data: body });
  expect(res.ok(), path).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

test("a new lead matching an existing one: go back, create separately, update and undo", async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const digits = uniqueDigits();
  const existing = await apiPost(page, "/leads", {
    name: `Robin Existing ${id}`,
    phone: parenthesized(digits),
    stage: "new",
    tags: [`old-${id}`],
    notes: "Prefers mornings",
  });

  await page.goto("/leads");
  await page.getByRole("button", { name: "New lead" }).click();
  const form = page.getByRole("dialog", { name: "New lead" });
  await form.getByLabel("Name", { exact: true }).fill(`Robin New ${id}`);
  await form.getByLabel("Phone").fill(dotted(digits));
  await form.getByLabel("Stage").selectOption("quoted");
  await form.getByLabel("Tags").fill(`new-${id}`);
  await form.getByRole("button", { name: "Save lead" }).click();

  // The dialog: the existing lead beside the update, the changed fields listed.
  const ask = matchDialog(page);
  await expect(ask).toBeVisible();
  await expect(ask).toContainText("A lead with this phone number already exists");
  await expect(ask.getByTestId("match-summary")).toHaveText(
    "The update would change 4 fields: Name, Phone, Stage, Tags.",
  );
  // Stages by their pipeline labels, not their keys.
  await expect(fieldRow(ask, "stage").getByRole("definition")).toHaveText(["New", "Quoted"]);
  await expect(fieldRow(ask, "notes").getByRole("definition")).toHaveText([
    "Prefers mornings",
    "Prefers mornings",
  ]);
  await screenshotBoth(page, "lead-match-dialog", { fullPage: false });

  // Go back: the form with its input, nothing saved.
  await ask.getByRole("button", { name: "Go back" }).click();
  await expect(ask).toBeHidden();
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(`Robin New ${id}`);
  await expect(form.getByLabel("Stage")).toHaveValue("quoted");
  const stored = await apiGet<{ data: Record<string, unknown> }>(page, `/leads/${existing.id}`);
  expect(stored.data).toMatchObject({ name: `Robin Existing ${id}`, stage: "new" });

  // Create a separate lead: two leads with that phone now.
  await form.getByRole("button", { name: "Save lead" }).click();
  await ask.getByRole("button", { name: "Create a separate lead" }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Lead created" })).toBeVisible();
  const both = await apiGet<{ data: { id: string; name: string }[] }>(page, `/leads?search=${digits}`);
  expect(both.data.map((l) => l.name).sort()).toEqual([`Robin Existing ${id}`, `Robin New ${id}`]);
  const separate = both.data.find((l) => l.name === `Robin New ${id}`)!;

  // A third "new" one updates the newest match (the separate lead); Undo restores it.
  await page.getByRole("button", { name: "New lead" }).click();
  await form.getByLabel("Name", { exact: true }).fill(`Robin Updated ${id}`);
  await form.getByLabel("Phone").fill(digits);
  await form.getByLabel("Tags").fill(`later-${id}`);
  await form.getByRole("button", { name: "Save lead" }).click();
  // Enter on the question changes nothing: Go back has the focus, never Update.
  await expect(ask.getByRole("button", { name: "Go back" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(ask).toBeHidden();
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(`Robin Updated ${id}`);
  expect((await apiGet<{ data: Record<string, unknown> }>(page, `/leads/${separate.id}`)).data).toMatchObject(
    {
      name: `Robin New ${id}`,
    },
  );
  await form.getByRole("button", { name: "Save lead" }).click();
  await ask.getByRole("button", { name: `Update Robin New ${id}` }).click();
  await expect(form).toBeHidden();
  const toast = page.getByRole("region", { name: "Notifications" });
  await expect(toast).toContainText(`Updated Robin Updated ${id}`);
  // The form's untouched first stage is a new lead's start, not a change to the matched lead.
  await expect(toast).toContainText("Changed: Name, Phone, Tags.");
  let after = await apiGet<{ data: Record<string, unknown> }>(page, `/leads/${separate.id}`);
  expect(after.data).toMatchObject({
    name: `Robin Updated ${id}`,
    stage: "quoted",
    tags: [`new-${id}`, `later-${id}`],
  });
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(toast).toContainText(`Undone: Robin Updated ${id} restored`);
  after = await apiGet<{ data: Record<string, unknown> }>(page, `/leads/${separate.id}`);
  expect(after.data).toMatchObject({
    name: `Robin New ${id}`,
    phone: dotted(digits),
    stage: "quoted",
    tags: [`new-${id}`],
  });
});

/** Nothing in the dialog reaches past its edges, and nothing in it scrolls sideways. */
async function expectDialogFits(dialog: Locator) {
  const overflow = await dialog.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const past = [...el.querySelectorAll("*")]
      .filter((child) => {
        const r = child.getBoundingClientRect();
        return r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5);
      })
      .map((child) => `${child.tagName.toLowerCase()} "${(child.textContent ?? "").slice(0, 30)}"`);
    const scrolls = [el, ...el.querySelectorAll("*")]
      // A screen-reader-only text (1 px, clipped) is not seen, so it cannot be cut off.
      .filter((child) => child.clientWidth > 1)
      .filter(
        (child) =>
          child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== "visible",
      )
      .map((child) => child.tagName.toLowerCase());
    return [...past, ...scrolls.map((t) => `${t} scrolls sideways`)];
  });
  expect(overflow).toEqual([]);
}

test("a matched new lead asks before changing its owner; labels, local dates, fits a phone", async ({
  page,
}) => {
  const priya = { id: "usr_pest_rep_priya", name: "Priya Patel" };
  const jake = demoUser("sales_rep");
  await signIn(page, "manager", { next: false });
  const id = unique();
  const digits = uniqueDigits();
  const followUp = "2026-12-10T17:40:00.000Z";
  const existing = await apiPost(page, "/leads", {
    name: `Priya Lead ${id}`,
    phone: parenthesized(digits),
    stage: "quoted",
    priority: "low",
    follow_up_date: followUp,
    assigned_to: priya.id,
  });
  const stored = async () =>
    (await apiGet<{ data: Record<string, unknown> }>(page, `/leads/${existing.id}`)).data;

  await page.goto("/leads");
  const newLead = async (name: string) => {
    await page.getByRole("button", { name: "New lead" }).click();
    const form = page.getByRole("dialog", { name: "New lead" });
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Phone").fill(dotted(digits));
    await form.getByLabel("Owner").selectOption({ label: `${jake.name} (Sales rep)` });
    await form.getByRole("button", { name: "Save lead" }).click();
    return form;
  };
  const form = await newLead(`Jake Lead ${id}`);
  const ask = matchDialog(page);
  await expect(ask).toBeVisible();

  // The owner is shown and stays Priya's unless the user ticks the box.
  const summary = ask.getByTestId("match-summary");
  await expect(summary).toHaveText("The update would change 2 fields: Name, Phone.");
  const owner = ask.getByRole("checkbox", { name: `Also make ${jake.name} the owner` });
  await expect(owner).not.toBeChecked();
  await expect(ask).toContainText(`The lead belongs to ${priya.name}; left unticked, it stays theirs.`);
  await expect(fieldRow(ask, "assigned_to").getByRole("definition")).toHaveText([priya.name, priya.name]);
  // Labels and the user's local date, never the stored keys and timestamp.
  await expect(fieldRow(ask, "stage").getByRole("definition")).toHaveText(["Quoted", "Quoted"]);
  await expect(fieldRow(ask, "priority").getByRole("definition")).toHaveText(["Low", "Low"]);
  const localDate = await page.evaluate(
    (iso) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date(iso)),
    followUp,
  );
  await expect(fieldRow(ask, "follow_up_date").getByRole("definition")).toHaveText([localDate, localDate]);
  await expect(ask).not.toContainText("T17:40");

  await owner.check();
  await expect(summary).toHaveText("The update would change 3 fields: Name, Phone, Owner.");
  await expect(fieldRow(ask, "assigned_to").getByRole("definition")).toHaveText([priya.name, jake.name]);

  // Readable in both themes and at a phone's width, stacked: nothing cut off, no sideways scroll.
  await expectAccessible(page);
  await screenshotBoth(page, "owner-match-dialog", { fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectDialogFits(ask);
  await expectNoPageScrollX(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);
  await screenshotBoth(page, "owner-match-dialog-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });

  // Unticked, Update leaves the owner out: the lead stays Priya's.
  await owner.uncheck();
  await ask.getByRole("button", { name: `Update Priya Lead ${id}` }).click();
  await expect(form).toBeHidden();
  const toast = page.getByRole("region", { name: "Notifications" });
  await expect(toast).toContainText("Changed: Name, Phone.");
  expect(await stored()).toMatchObject({ name: `Jake Lead ${id}`, assigned_to: priya.id });

  // Ticked, the owner changes, the toast says so, and Undo gives the lead back to Priya.
  await newLead(`Jake Again ${id}`);
  await ask.getByRole("checkbox", { name: `Also make ${jake.name} the owner` }).check();
  await ask.getByRole("button", { name: `Update Jake Lead ${id}` }).click();
  await expect(toast).toContainText("Changed: Name, Owner.");
  expect(await stored()).toMatchObject({ name: `Jake Again ${id}`, assigned_to: jake.id });
  await toast
    .locator(":scope > div")
    .filter({ hasText: "Changed: Name, Owner." })
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(toast).toContainText(`Undone: Jake Again ${id} restored`);
  expect(await stored()).toMatchObject({ name: `Jake Lead ${id}`, assigned_to: priya.id });
});

test("the edit form's update offers Undo, which restores the lead", async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const lead = await apiPost(page, "/leads", { name: `Edit Undo ${id}`, stage: "new", tags: ["keep"] });
  await page.goto(`/leads/${lead.id}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByLabel("Stage").selectOption("contacted");
  await page.getByLabel("Add tags").fill(`added-${id}`);
  await page.getByRole("button", { name: "Save changes" }).click();
  const toast = page.getByRole("region", { name: "Notifications" });
  await expect(toast).toContainText("Changed: Stage, Tags.");
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(toast).toContainText(`Undone: Edit Undo ${id} restored`);
  const restored = await apiGet<{ data: Record<string, unknown> }>(page, `/leads/${lead.id}`);
  expect(restored.data).toMatchObject({ stage: "new", tags: ["keep"] });
  // The form shows the restored values.
  await expect(page.getByLabel("Stage")).toHaveValue("new");
});

test("a new customer matching an existing one: the dialog, update and undo", async ({ page }) => {
  await signIn(page, "manager", { next: false });
  const id = unique();
  const digits = uniqueDigits();
  const existing = await apiPost(page, "/customers", {
    first_name: "Sam",
    last_name: `Existing ${id}`,
    phone: parenthesized(digits),
    property_city: "Austin",
  });

  await page.goto("/customers");
  await page.getByRole("button", { name: "New customer" }).click();
  const form = page.getByRole("dialog", { name: "New customer" });
  await form.getByLabel("First name").fill("Sam");
  await form.getByLabel("Phone").fill(dotted(digits));
  await form.getByLabel("City").first().fill("Round Rock");
  await form.getByRole("button", { name: "Save customer" }).click();

  const ask = matchDialog(page);
  await expect(ask).toContainText("A customer with this phone number already exists");
  await expect(ask.getByTestId("match-summary")).toHaveText("The update would change 2 fields: Phone, City.");
  await screenshotBoth(page, "customer-match-dialog", { fullPage: false });

  await ask.getByRole("button", { name: `Update Sam Existing ${id}` }).click();
  await expect(form).toBeHidden();
  const toast = page.getByRole("region", { name: "Notifications" });
  await expect(toast).toContainText("Changed: Phone, City.");
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(toast).toContainText(`Undone: Sam Existing ${id} restored`);
  const restored = await apiGet<{ data: Record<string, unknown> }>(page, `/customers/${existing.id}`);
  expect(restored.data).toMatchObject({ phone: parenthesized(digits), address: { city: "Austin" } });
});

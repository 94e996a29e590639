import { expect, test, type Page } from "@playwright/test";
import { API_HEADERS, screenshotBoth, signIn, unique } from "./helpers";

/*
 * Nothing lost by accident (issue #41): a form with unsaved changes asks "Discard changes?"
 * before its dialog closes or its page is left; a clean or just-saved form does not.
 */

const discardQuestion = (page: Page) => page.getByRole("alertdialog", { name: "Discard changes?" });

async function newCustomer(page: Page, name: string): Promise<string> {
  const res = await page.request.post("/api/customers", {
    headers: API_HEADERS,
    data: { company_name: name, email: `${name.replace(/\W/g, "")}@example.test` },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test.beforeEach(async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
});

test("a filled New lead dialog asks before Esc, Cancel or the close button discard it", async ({ page }) => {
  const id = unique();
  await page.goto("/leads");
  await page.getByRole("button", { name: "New lead" }).click();
  const dialog = page.getByRole("dialog", { name: "New lead" });
  const name = dialog.getByLabel("Name", { exact: true });
  await name.fill(`Robin Unsaved ${id}`);
  await dialog.getByLabel("Notes").fill("Call after 5");

  // Esc asks; the safe answer has the focus.
  await page.keyboard.press("Escape");
  const ask = discardQuestion(page);
  await expect(ask).toBeVisible();
  await expect(ask).toContainText("have not been saved");
  await expect(ask.getByRole("button", { name: "Keep editing" })).toBeFocused();
  await screenshotBoth(page, "discard-question", { fullPage: false });

  // Keep editing: the input is all there, the focus back in the field being typed in.
  await ask.getByRole("button", { name: "Keep editing" }).click();
  await expect(ask).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(name).toHaveValue(`Robin Unsaved ${id}`);
  await expect(dialog.getByLabel("Notes")).toHaveValue("Call after 5");
  await expect(dialog.getByLabel("Notes")).toBeFocused();

  // Esc on the question is "Keep editing" too, and leaves the form's dialog open.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(ask).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(name).toHaveValue(`Robin Unsaved ${id}`);
  await expect(dialog.getByLabel("Notes")).toBeFocused();

  // The close button asks; Discard closes the dialog and nothing is saved.
  await dialog.getByRole("button", { name: "Close dialog" }).click();
  await ask.getByRole("button", { name: "Discard" }).click();
  await expect(ask).toBeHidden();
  await expect(dialog).toBeHidden();
  const found = await page.request.get(`/api/leads?search=${id}`, { headers: API_HEADERS });
  expect(((await found.json()) as { data: unknown[] }).data).toHaveLength(0);

  // Opened again, the form is empty.
  await page.getByRole("button", { name: "New lead" }).click();
  await expect(name).toHaveValue("");
});

test("a clean dialog closes without asking, also after a value typed and taken back", async ({ page }) => {
  await page.goto("/customers");
  const dialog = page.getByRole("dialog", { name: "New customer" });
  await page.getByRole("button", { name: "New customer" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "New customer" }).click();
  await dialog.getByLabel("First name").fill("Sam");
  await dialog.getByLabel("First name").fill("");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(discardQuestion(page)).toHaveCount(0);
});

test("a saved New lead closes its dialog without asking", async ({ page }) => {
  const id = unique();
  await page.goto("/leads");
  await page.getByRole("button", { name: "New lead" }).click();
  const dialog = page.getByRole("dialog", { name: "New lead" });
  await dialog.getByLabel("Name", { exact: true }).fill(`Saved Lead ${id}`);
  await dialog.getByLabel("Email").fill(`saved.${id}@example.test`);
  await dialog.getByRole("button", { name: "Save lead" }).click();
  await expect(dialog).toBeHidden();
  await expect(discardQuestion(page)).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "Lead created" })).toBeVisible();
});

test("an edited customer page asks before a link leaves it; saved, it does not", async ({ page }) => {
  const name = `Unsaved Co ${unique()}`;
  const id = await newCustomer(page, name);
  await page.goto(`/customers/${id}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const form = page.getByRole("form", { name: "Edit customer" });
  const notes = form.getByLabel("Notes");
  await notes.fill("Gate code 1234");

  // A link in the main navigation: asks; Keep editing stays with the edit.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leads" }).click();
  const ask = discardQuestion(page);
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Keep editing" }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/customers/${id}$`));
  await expect(notes).toHaveValue("Gate code 1234");
  // The click gave the link the focus; the field typed in gets it back.
  await expect(notes).toBeFocused();
  await screenshotBoth(page, "edited-customer");

  // "← All customers": asks too; Discard follows the link.
  await page.getByRole("main").getByRole("link", { name: "All customers" }).first().click();
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Discard" }).click();
  await expect(page).toHaveURL(/\/customers(\?.*)?$/);
  await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
  await expect(ask).toHaveCount(0);

  // Edit again and save: leaving no longer asks.
  await page.goto(`/customers/${id}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await notes.fill("Gate code 5678");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Customer updated" })).toBeVisible();
  await expect(form.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leads" }).click();
  await expect(page).toHaveURL(/\/leads(\?.*)?$/);
  await expect(ask).toHaveCount(0);
});

test("reloading an edited lead page asks the browser's beforeunload question", async ({ page }) => {
  const res = await page.request.post("/api/leads", {
    headers: API_HEADERS,
    data: { name: `Reload Lead ${unique()}`, stage: "new" },
  });
  expect(res.status()).toBe(201);
  const lead = (await res.json()) as { id: string };
  await page.goto(`/leads/${lead.id}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const form = page.getByRole("form", { name: "Edit lead" });

  // Clean: a reload goes through without a question.
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  await page.reload();
  expect(asked).toEqual([]);
  // The form opens again behind its Edit button.
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(form).toBeVisible();

  // Dirty: the browser asks; dismissing it keeps the page and the edit.
  await form.getByLabel("Notes").fill("Do not lose this");
  await page.reload({ timeout: 2_000 }).catch(() => undefined);
  expect(asked).toEqual(["beforeunload"]);
  await expect(form.getByLabel("Notes")).toHaveValue("Do not lose this");
});

test("browser Back from an edited page asks; Keep editing stays, Discard goes back", async ({ page }) => {
  const name = `Back Co ${unique()}`;
  const id = await newCustomer(page, name);
  await page.goto("/customers");
  await page.goto(`/customers/${id}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const form = page.getByRole("form", { name: "Edit customer" });
  const notes = form.getByLabel("Notes");
  await notes.fill("Back is not a discard");

  const ask = discardQuestion(page);
  await page.goBack();
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Keep editing" }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/customers/${id}$`));
  await expect(notes).toHaveValue("Back is not a discard");

  // Asks again on the next Back (the guard is back in place), and Discard goes back.
  await page.goBack();
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Discard" }).click();
  await expect(page).toHaveURL(/\/customers$/);
  await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();

  // Forward and save: clean again, a single Back leaves without asking.
  await page.goForward();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(form).toBeVisible();
  await notes.fill("Saved before going back");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Customer updated" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/customers$/);
  await expect(ask).toHaveCount(0);
});

test("Back from a filled New lead dialog asks; a discarded dialog leaves no extra history", async ({
  page,
}) => {
  await page.goto("/customers");
  await page.goto("/leads");
  await page.getByRole("button", { name: "New lead" }).click();
  const dialog = page.getByRole("dialog", { name: "New lead" });
  await dialog.getByLabel("Name", { exact: true }).fill("Typed then kept");

  await page.goBack();
  const ask = discardQuestion(page);
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Keep editing" }).click();
  await expect(dialog.getByLabel("Name", { exact: true })).toHaveValue("Typed then kept");

  // Closed with Discard: the guard entry goes with the form; one Back leaves /leads.
  await page.keyboard.press("Escape");
  await ask.getByRole("button", { name: "Discard" }).click();
  await expect(dialog).toBeHidden();
  await page.goBack();
  await expect(page).toHaveURL(/\/customers/);
});

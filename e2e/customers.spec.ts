import { expect, test, type Page } from "@playwright/test";
import { API_HEADERS, screenshotBoth, signIn, unique } from "./helpers";

/*
 * The customers pages as a sales rep uses them: create a customer whose billing address is the
 * property address, see both on its page, and filter the list by status.
 */

const table = (page: Page) => page.getByRole("table", { name: "Customers" });
const total = (page: Page) => page.getByTestId("table-total");

test.beforeEach(async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
});

test("create a customer with billing same as property and see both addresses on its page", async ({
  page,
}) => {
  const id = unique();
  const last = `Customer${id}`;
  // A phone no other customer has (the demo's are 555 numbers), so the save creates a customer.
  const digits = String(Math.floor(Math.random() * 1e6)).padStart(6, "0");
  const phone = `(512) 9${digits.slice(0, 2)}-${digits.slice(2)}`;

  await page.goto("/customers");
  await expect(table(page).getByRole("row").nth(1)).toBeVisible();
  await screenshotBoth(page, "list");

  await page.getByRole("button", { name: "New customer" }).click();
  const dialog = page.getByRole("dialog", { name: "New customer" });
  await expect(dialog.getByLabel("First name")).toBeFocused();
  await dialog.getByLabel("First name").fill("Casey");
  await dialog.getByLabel("Last name").fill(last);
  await dialog.getByLabel("Email").fill(`casey.${id}@example.test`);
  await dialog.getByLabel("Phone").fill(phone);
  const property = dialog.getByRole("group", { name: "Property address" });
  await property.getByLabel("Street", { exact: true }).fill("742 Evergreen Terrace");
  await property.getByLabel("City").fill("Austin");
  await property.getByLabel("State").fill("TX");
  await property.getByLabel("ZIP").fill("78704");
  await property.getByLabel("Country").fill("US");

  // The billing lines are there until "same as property" is checked, then they go away.
  const billing = dialog.getByRole("group", { name: "Billing address" });
  await expect(billing.getByLabel("Street", { exact: true })).toBeVisible();
  await billing.getByLabel("Billing same as property").check();
  await expect(billing.getByLabel("Street", { exact: true })).toHaveCount(0);
  await dialog.getByRole("textbox", { name: "Tags", exact: true }).fill(`e2e-${id}`);
  await screenshotBoth(page, "new-customer-dialog", { fullPage: false });
  await dialog.getByRole("button", { name: "Save customer" }).click();

  await expect(dialog).toBeHidden();
  const outcome = page.getByRole("status").filter({ hasText: "Customer created" });
  await expect(outcome).toBeVisible();
  // In the table without a reload.
  await expect(table(page).getByRole("link", { name: `Casey ${last}` })).toBeVisible();

  await outcome.getByRole("link", { name: `Casey ${last}` }).click();
  await expect(page).toHaveURL(/\/customers\/cus_/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Casey ${last}`);
  const propertyText = page.getByTestId("property-address");
  await expect(propertyText).toHaveText("742 Evergreen TerraceAustin, TX 78704US");
  await expect(page.getByTestId("billing-address")).toHaveText(
    (await propertyText.textContent()) ?? "property address missing",
  );
  await expect(page.getByText("Same as property", { exact: true })).toBeVisible();
  await expect(page.getByTestId("customer-tags").getByRole("listitem")).toHaveText([`e2e-${id}`]);
  await screenshotBoth(page, "detail");
});

test("the status filter shows active or inactive customers only, and survives a reload", async ({ page }) => {
  const id = unique();
  // Two customers of our own, one of each status, findable by a unique search (made through the
  // API with this session: the form is covered above).
  for (const status of ["active", "inactive"] as const) {
    const res = await page.request.post("/api/customers", {
      headers: API_HEADERS,
      data: { company_name: `Status ${status} ${id}`, email: `${status}.${id}@example.test`, status },
    });
    expect(res.status()).toBe(201);
  }

  await page.goto(`/customers?search=${id}`);
  await expect(total(page)).toHaveText(/of 2 customers/);

  await page.getByLabel("Status", { exact: true }).selectOption("inactive");
  await expect(page).toHaveURL(/status=inactive/);
  await expect(total(page)).toHaveText(/of 1 customer$/);
  await expect(table(page).getByRole("link", { name: `Status inactive ${id}` })).toBeVisible();
  await expect(table(page).getByRole("row").nth(1)).toContainText("Inactive");

  await page.reload();
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("inactive");
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue(id);
  await expect(table(page).getByRole("link", { name: `Status inactive ${id}` })).toBeVisible();

  await page.getByLabel("Status", { exact: true }).selectOption("active");
  await expect(total(page)).toHaveText(/of 1 customer$/);
  await expect(table(page).getByRole("link", { name: `Status active ${id}` })).toBeVisible();
  await expect(table(page).getByRole("link", { name: `Status inactive ${id}` })).toHaveCount(0);

  // Without a search, every row of the "inactive" view is inactive.
  await page.goto("/customers?status=inactive&limit=100");
  await expect(table(page).getByRole("row").nth(1)).toBeVisible();
  await expect(
    table(page)
      .getByRole("row")
      .filter({ hasText: /\bActive\b/ }),
  ).toHaveCount(0);
  await screenshotBoth(page, "inactive");
});

test("archive the ticked customers in bulk, confirmed with their number, then undo", async ({ page }) => {
  const token = `bulkcus${unique()}`;
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await page.request.post("/api/customers", {
      headers: API_HEADERS,
      data: { first_name: "Bulk", last_name: `${token} ${i}`, email: `${token}.${i}@example.test` },
    });
    expect(res.status()).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  await page.goto(`/customers?search=${token}`);
  await expect(table(page).getByRole("row")).toHaveCount(3);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

  await table(page).getByRole("checkbox", { name: "Select all customers on this page" }).check();
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByText("2 customers selected")).toBeVisible();
  await bar.getByRole("button", { name: "Archive…", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Archive 2 customers?" });
  await screenshotBoth(page, "customers-bulk-archive", { fullPage: false });
  await dialog.getByRole("button", { name: "Archive 2 customers" }).click();
  await expect(page.getByText("Archived: 2 customers changed.")).toBeVisible();
  // Archived customers leave the list of active ones.
  await expect(table(page).getByRole("row")).toHaveCount(1);
  const archived = async () =>
    Promise.all(
      ids.map(async (id) => {
        const res = await page.request.get(`/api/customers/${id}`, { headers: API_HEADERS });
        return ((await res.json()) as { data: { archived: boolean } }).data.archived;
      }),
    );
  expect(await archived()).toEqual([true, true]);

  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("Undone: 2 customers restored.")).toBeVisible();
  await expect(table(page).getByRole("row")).toHaveCount(3);
  expect(await archived()).toEqual([false, false]);
});

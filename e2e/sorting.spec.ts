import { expect, test, type Page } from "@playwright/test";
import { API_HEADERS, screenshotBoth, signIn, unique } from "./helpers";

/*
 * Sorting the leads and customers tables by their headers (on the server, kept in the URL, by
 * mouse and keyboard), and the leads' "Due today" and "Overdue" views.
 */

const settled = (page: Page) => expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
const header = (page: Page, table: string, name: string) =>
  page.getByRole("table", { name: table }).getByRole("columnheader", { name });

/** The names of the first rows as the API orders them for `query`. */
async function apiNames(page: Page, path: string, count: number): Promise<string[]> {
  const res = await page.request.get(path, { headers: API_HEADERS });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { data: { name?: string }[] };
  return body.data.slice(0, count).map((row) => row.name ?? "");
}

async function firstLinks(page: Page, table: string, count: number): Promise<string[]> {
  const rows = page.getByRole("table", { name: table }).getByRole("row");
  const names: string[] = [];
  for (let i = 1; i <= count; i++)
    names.push((await rows.nth(i).getByRole("link").first().innerText()).trim());
  return names;
}

test.beforeEach(async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
});

test("leads sort by a header click and by keyboard, the order in the URL", async ({ page }) => {
  await page.goto("/leads");
  await settled(page);
  // Newest first without a sort.
  await expect(header(page, "Leads", "Created")).toHaveAttribute("aria-sort", "descending");

  await header(page, "Leads", "Name").getByRole("button").click();
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expect(header(page, "Leads", "Name")).toHaveAttribute("aria-sort", "ascending");
  await expect(header(page, "Leads", "Created")).not.toHaveAttribute("aria-sort", /./);
  await settled(page);
  const expected = (await apiNames(page, "/api/leads?sort=name&limit=3", 3)).map((n) => n || "(no name)");
  expect(await firstLinks(page, "Leads", 3)).toEqual(expected);

  await header(page, "Leads", "Name").getByRole("button").click();
  await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
  await expect(header(page, "Leads", "Name")).toHaveAttribute("aria-sort", "descending");
  await settled(page);
  const down = (await apiNames(page, "/api/leads?sort=-name&limit=3", 3)).map((n) => n || "(no name)");
  expect(await firstLinks(page, "Leads", 3)).toEqual(down);
  await screenshotBoth(page, "leads-by-name");

  // The keyboard: a header is a real button, Enter and Space sort by it.
  const value = header(page, "Leads", "Projected value").getByRole("button");
  await value.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]sort=-?projected_value(&|$)/);
  const first = new URL(page.url()).searchParams.get("sort");
  await page.keyboard.press("Space");
  await expect(page).toHaveURL((url) => {
    const sort = url.searchParams.get("sort");
    return sort !== first && (sort === "projected_value" || sort === "-projected_value");
  });
  await expect(header(page, "Leads", "Projected value")).toHaveAttribute(
    "aria-sort",
    new URL(page.url()).searchParams.get("sort")?.startsWith("-") ? "descending" : "ascending",
  );

  // A reload keeps the order; Email is not sortable (no button).
  await page.reload();
  await expect(header(page, "Leads", "Projected value")).toHaveAttribute("aria-sort", /ascending|descending/);
  await expect(header(page, "Leads", "Email").getByRole("button")).toHaveCount(0);
});

test("customers sort by name (last, first, company) and status", async ({ page }) => {
  await page.goto("/customers");
  await settled(page);
  await header(page, "Customers", "Name").getByRole("button").click();
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expect(header(page, "Customers", "Name")).toHaveAttribute("aria-sort", "ascending");
  await settled(page);
  const res = await page.request.get("/api/customers?sort=name&limit=1", { headers: API_HEADERS });
  const [firstCustomer] = ((await res.json()) as { data: { id: string }[] }).data;
  await expect(
    page
      .getByRole("table", { name: "Customers" })
      .getByRole("row")
      .nth(1)
      .locator(`a[href="/customers/${firstCustomer!.id}"]`),
  ).toBeVisible();

  await header(page, "Customers", "Status").getByRole("button").press("Enter");
  await expect(page).toHaveURL(/[?&]sort=-?status(&|$)/);
  await expect(header(page, "Customers", "Name")).not.toHaveAttribute("aria-sort", /./);
  await screenshotBoth(page, "customers-by-status");
});

test("Due today and Overdue show the leads to follow up, by the local date", async ({ page }) => {
  const id = unique();
  // Noon today and noon yesterday in the browser's own time zone.
  const [today, yesterday, tomorrow] = await page.evaluate(() => {
    const at = (days: number) => {
      const d = new Date();
      return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days, 12).toISOString();
    };
    return [at(0), at(-1), at(1)];
  });
  const make = async (name: string, follow_up_date: string, stage = "new") => {
    const res = await page.request.post("/api/leads", {
      headers: API_HEADERS,
      data: { name: `${name} ${id}`, follow_up_date, stage },
    });
    expect(res.status()).toBe(201);
  };
  await make("Due Dana", today!);
  await make("Late Lee", yesterday!);
  await make("Later Lou", tomorrow!);
  // Closed leads (won or lost) have nothing left to follow up: neither view lists them.
  await make("Lost Lena", yesterday!, "lost");
  await make("Won Wes", today!, "Won");

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/leads?search=${id}`);
  await settled(page);
  const table = page.getByRole("table", { name: "Leads" });
  await expect(table.getByRole("link")).toHaveCount(5);
  // At 1440 px the follow-up and created dates show without a sideways scroll.
  await expect(header(page, "Leads", "Follow-up")).toBeInViewport({ ratio: 1 });
  await expect(header(page, "Leads", "Created")).toBeInViewport({ ratio: 1 });

  await page.getByRole("button", { name: "Due today" }).click();
  await expect(page).toHaveURL(/[?&]due=today(&|$)/);
  await expect(page.getByRole("button", { name: "Due today" })).toHaveAttribute("aria-pressed", "true");
  await expect(table.getByRole("link")).toHaveText([`Due Dana ${id}`]);
  await expect(header(page, "Leads", "Follow-up")).toHaveAttribute("aria-sort", "ascending");
  await screenshotBoth(page, "due-today");

  await page.getByRole("button", { name: "Overdue" }).click();
  await expect(page).toHaveURL(/[?&]due=overdue(&|$)/);
  await expect(table.getByRole("link")).toHaveText([`Late Lee ${id}`]);

  await page.getByRole("button", { name: "All" }).click();
  await expect(page).not.toHaveURL(/due=/);
});

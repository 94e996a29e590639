import { expect, test, type Page } from "@playwright/test";
import { API_HEADERS, screenshotBoth, signIn } from "./helpers";
import { apiGet, expectCard, exportCsv, money } from "./report-helpers";

// The report pages show the API's numbers, compared with the endpoint asked with the page's
// session before and after a filter change; the CSV export holds the filtered set.

interface PlanReport {
  plan_count: number;
  sale_value: number;
  total_received: number;
  collection_rate: number;
  num_completed_jobs: number;
  num_scheduled_jobs: number;
  num_pending_jobs: number;
  by_frequency: { frequency: string; plan_count: number }[];
  by_sales_rep: { sold_by: { user_id: string; name: string; email: string }; plan_count: number }[];
}

interface JobReport {
  job_count: number;
  total: number;
  total_received: number;
  total_outstanding: number;
  over_time: { period_start: string | null; job_count: number }[];
}

interface Job {
  id: string;
  line_items: { id: string; title: string; total_price: number }[];
  payments: { id: string; amount: number }[];
}

async function expectPlanTotals(page: Page, report: PlanReport) {
  await expectCard(page, "plan_count", report.plan_count);
  await expectCard(page, "sale_value", report.sale_value, { money: true });
  await expectCard(page, "total_received", report.total_received, { money: true });
  await expectCard(page, "collection_rate", report.collection_rate);
  await expectCard(page, "num_completed_jobs", report.num_completed_jobs);
  await expectCard(page, "num_scheduled_jobs", report.num_scheduled_jobs);
  await expectCard(page, "num_pending_jobs", report.num_pending_jobs);
  // The table's footer row: sums over the whole filtered set, not the page.
  await expect(page.getByTestId("sum-sale_value")).toHaveAttribute("data-value", String(report.sale_value));
  await expect(page.getByTestId("sum-total_received")).toHaveAttribute(
    "data-value",
    String(report.total_received),
  );
  await expect(page.getByTestId("sum-num_pending_jobs")).toHaveAttribute(
    "data-value",
    String(report.num_pending_jobs),
  );
}

async function expectJobTotals(page: Page, report: JobReport) {
  await expectCard(page, "job_count", report.job_count);
  await expectCard(page, "total", report.total, { money: true });
  await expectCard(page, "total_received", report.total_received, { money: true });
  await expectCard(page, "total_outstanding", report.total_outstanding, { money: true });
  await expect(page.getByTestId("sum-total")).toHaveAttribute("data-value", String(report.total));
  await expect(page.getByTestId("sum-total_outstanding")).toHaveAttribute(
    "data-value",
    String(report.total_outstanding),
  );
}

test.describe("service plans report", () => {
  test("totals, charts and sums are the API's, follow the filters in the URL, and the CSV holds the filtered set", async ({
    page,
  }) => {
    await signIn(page, "manager", { next: false });
    await page.goto("/reports/service-plans");
    await expect(page.getByRole("heading", { level: 1, name: "Service plans" })).toBeVisible();

    const all = (await apiGet<{ data: PlanReport }>(page, "/api/reports/service-plans")).data;
    expect(all.plan_count, "the demo data has service plans").toBeGreaterThan(0);
    await expectPlanTotals(page, all);
    // The table's count is the list endpoint's total, the same set as the report.
    await expect(page.getByTestId("table-total")).toContainText(
      await page.evaluate((n) => new Intl.NumberFormat().format(n), all.plan_count),
    );
    await screenshotBoth(page, "service-plans");

    // A frequency that holds some but not all plans: the numbers and the URL change.
    const frequency = all.by_frequency.find((f) => f.plan_count > 0 && f.plan_count < all.plan_count);
    expect(frequency, "the demo plans have more than one frequency").toBeDefined();
    await page.getByLabel("Frequency", { exact: true }).selectOption(frequency!.frequency);
    await expect(page).toHaveURL(
      new RegExp(`[?&]frequency=${encodeURIComponent(frequency!.frequency)}(&|$)`),
    );
    const byFrequency = (
      await apiGet<{ data: PlanReport }>(page, "/api/reports/service-plans", {
        frequency: frequency!.frequency,
      })
    ).data;
    expect(byFrequency.plan_count).toBe(frequency!.plan_count);
    await expectPlanTotals(page, byFrequency);

    // Then a seller on top of it (the choices come from the report's sales reps).
    const seller = all.by_sales_rep.find((r) => r.sold_by.user_id)!.sold_by;
    await page.getByLabel("Sold by", { exact: true }).selectOption(seller.user_id);
    await expect(page).toHaveURL(/[?&]sold_by_user_id=/);
    await expect(page).toHaveURL(/[?&]frequency=/);
    const both = (
      await apiGet<{ data: PlanReport }>(page, "/api/reports/service-plans", {
        frequency: frequency!.frequency,
        sold_by_user_id: seller.user_id,
      })
    ).data;
    await expectPlanTotals(page, both);

    // A reload restores the view from the URL.
    await page.reload();
    await expect(page.getByLabel("Frequency", { exact: true })).toHaveValue(frequency!.frequency);
    await expectPlanTotals(page, both);

    // The export: one row per plan of the filtered set, plus the header.
    const rows = await exportCsv(page);
    expect(rows[0]?.[0]).toBe("id");
    expect(rows.length).toBe(both.plan_count + 1);
    const frequencyColumn = rows[0]!.indexOf("service_frequency");
    for (const row of rows.slice(1)) expect(row[frequencyColumn]).toBe(frequency!.frequency);

    // Clearing the filters brings back the whole set.
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).not.toHaveURL(/frequency=/);
    await expectPlanTotals(page, all);
  });
});

test.describe("service plans table", () => {
  test("sorts on the server by a header click, the order in the URL", async ({ page }) => {
    await signIn(page, "manager", { next: false });
    await page.goto("/reports/service-plans");
    const table = page.getByRole("table", { name: "Service plans" });
    const header = (name: string) => table.getByRole("columnheader", { name, exact: true });
    const settled = () => expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    /** The first rows' sale values as the table shows them, and as the API orders them for `sort`. */
    const shownValues = async () => {
      // textContent, not innerText: the headers are shown upper-case.
      const headers = await table.locator("thead th").allTextContents();
      const column = headers.findIndex((text) => text.includes("Sale value")) + 1;
      expect(column).toBeGreaterThan(0);
      const cells = table.locator("tbody tr").locator(`td:nth-child(${column})`);
      await expect(cells.first()).toBeVisible();
      return (await cells.allInnerTexts()).slice(0, 8);
    };
    const apiValues = async (sort: string) =>
      Promise.all(
        (
          await apiGet<{ data: { sale_value: number }[] }>(page, "/api/service-plans", { sort, limit: "8" })
        ).data.map((plan) => money(page, plan.sale_value)),
      );
    await settled();
    await expect(header("Sale value").getByRole("button")).toHaveCount(1);
    // Orders the API does not offer do not sort.
    await expect(header("Customer").getByRole("button")).toHaveCount(0);
    await expect(header("Sold by").getByRole("button")).toHaveCount(0);

    await header("Sale value").getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=-sale_value(&|$)/);
    await expect(header("Sale value")).toHaveAttribute("aria-sort", "descending");
    await settled();
    expect(await shownValues()).toEqual(await apiValues("-sale_value"));
    await screenshotBoth(page, "service-plans-sorted");

    await header("Start date").getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=-?start_date(&|$)/);
    await page.reload();
    await expect(header("Start date")).toHaveAttribute("aria-sort", /ascending|descending/);
    await expect(header("Sale value")).not.toHaveAttribute("aria-sort", /./);
  });
});

test.describe("jobs report", () => {
  test("totals are the API's for completed or all jobs and a date range, rows open to line items and payments, CSV", async ({
    page,
  }) => {
    await signIn(page, "manager", { next: false });
    await page.goto("/reports/jobs");
    await expect(page.getByRole("heading", { level: 1, name: "Jobs" })).toBeVisible();

    // Completed only is the default, as in the API.
    const completed = (await apiGet<{ data: JobReport }>(page, "/api/reports/serviced-jobs")).data;
    expect(completed.job_count, "the demo data has completed jobs").toBeGreaterThan(0);
    await expectJobTotals(page, completed);

    await page.getByLabel("Show", { exact: true }).selectOption("false");
    await expect(page).toHaveURL(/[?&]only_completed=false(&|$)/);
    const allJobs = (
      await apiGet<{ data: JobReport }>(page, "/api/reports/serviced-jobs", { only_completed: "false" })
    ).data;
    expect(allJobs.job_count, "the demo data has jobs that are not completed").toBeGreaterThan(
      completed.job_count,
    );
    await expectJobTotals(page, allJobs);

    // Weekly buckets: the switch is kept in the URL.
    await page.getByRole("radio", { name: "Week" }).click();
    await expect(page).toHaveURL(/[?&]interval=week(&|$)/);
    await expect(page.getByRole("radio", { name: "Week" })).toHaveAttribute("aria-checked", "true");

    // A service date range starting at a period in the middle of the data.
    const periods = allJobs.over_time.filter((p) => p.period_start !== null);
    const from = periods[Math.floor(periods.length / 2)]!.period_start!.slice(0, 10);
    await page.getByLabel("Service from", { exact: true }).fill(from);
    await expect(page).toHaveURL(new RegExp(`[?&]service_date_range_start=${from}(&|$)`));
    const filters = { only_completed: "false", service_date_range_start: from };
    const ranged = (await apiGet<{ data: JobReport }>(page, "/api/reports/serviced-jobs", filters)).data;
    expect(ranged.job_count).toBeLessThan(allJobs.job_count);
    await expectJobTotals(page, ranged);

    // A row opens to its line items and payments: the first job of the page that has both.
    // Oldest service date first, in the table and the API alike: those jobs are paid.
    const sorted = new URL(page.url());
    sorted.searchParams.set("sort", "service_date");
    await page.goto(sorted.toString());
    const list = await apiGet<{ data: Job[] }>(page, "/api/serviced-jobs", {
      ...filters,
      limit: "50",
      sort: "service_date",
    });
    const index = list.data.findIndex((j) => j.line_items.length > 0 && j.payments.length > 0);
    expect(index, "a listed job has line items and payments").toBeGreaterThanOrEqual(0);
    const job = list.data[index]!;
    // The row's toggle, found by the details it controls (its label changes from Show to Hide).
    const toggle = page.locator(`button[aria-controls="row-details-${job.id}"]`);
    await expect(toggle).toHaveAccessibleName(/^Show line items and payments/);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const details = page.getByTestId("job-details");
    await expect(details).toHaveCount(1);
    await expect(details.getByTestId("job-line-items").locator("tbody tr")).toHaveCount(
      job.line_items.length,
    );
    for (const item of job.line_items) await expect(details).toContainText(item.title);
    await expect(details.getByTestId("job-payments").locator("tbody tr")).toHaveCount(job.payments.length);
    await expect(details).toContainText(await money(page, job.payments[0]!.amount));
    // From the top: a scrolled full-page shot draws the fixed app bar in the middle.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotBoth(page, "jobs-expanded");

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("job-details")).toHaveCount(0);

    // The export: every job of the filtered set, not just the page.
    const rows = await exportCsv(page);
    expect(rows[0]?.[0]).toBe("id");
    expect(rows.length).toBe(ranged.job_count + 1);
  });
});

test.describe("jobs report table", () => {
  test("sorts on the server by a header click and by keyboard, the order in the URL", async ({ page }) => {
    await signIn(page, "manager", { next: false });
    await page.goto("/reports/jobs?only_completed=false&page=2");
    const table = page.getByRole("table", { name: "Jobs" });
    const header = (name: string) => table.getByRole("columnheader", { name });
    const settled = () => expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    /** The job ids of the table's first rows, read from their details toggles. */
    const rowIds = async (count: number) => {
      const toggles = table.locator('tbody button[aria-controls^="row-details-"]');
      await expect(toggles.first()).toBeVisible();
      const ids = await toggles.evaluateAll((buttons) =>
        buttons.map((b) => b.getAttribute("aria-controls")!.replace(/^row-details-/, "")),
      );
      return ids.slice(0, count);
    };
    const apiIds = async (sort: string) =>
      (
        await apiGet<{ data: Job[] }>(page, "/api/serviced-jobs", {
          only_completed: "false",
          ...(sort ? { sort } : {}),
          limit: "8",
        })
      ).data.map((job) => job.id);

    // Without a sort, the newest service date first (ties by id): the header and the note say so.
    const jobsTable = page.locator('section[aria-label="Jobs"]');
    const note = jobsTable.getByRole("status");
    await settled();
    await expect(table.locator("th[aria-sort]")).toHaveCount(1);
    await expect(header("Service date")).toHaveAttribute("aria-sort", "descending");
    await expect(note).toHaveText("Newest service date first");
    await page.goto("/reports/jobs?only_completed=false");
    await settled();
    expect(await rowIds(8)).toEqual(await apiIds("-service_date"));

    // Money: the largest first on the first click, back to the first page.
    await header("Outstanding").getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=-total_outstanding(&|$)/);
    expect(new URL(page.url()).searchParams.get("page")).toBeNull();
    await expect(header("Outstanding")).toHaveAttribute("aria-sort", "descending");
    await expect(note).toHaveText("Sorted by Outstanding, descending");
    await settled();
    const mostOwed = await apiIds("-total_outstanding");
    expect(await rowIds(8)).toEqual(mostOwed);
    await header("Outstanding").getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=total_outstanding(&|$)/);
    await expect(header("Outstanding")).toHaveAttribute("aria-sort", "ascending");
    await settled();
    expect(await rowIds(8)).toEqual(await apiIds("total_outstanding"));

    // The keyboard: a header is a real button; Enter and Space sort by it, earliest first.
    await header("Service date").getByRole("button").focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]sort=service_date(&|$)/);
    await expect(header("Service date")).toHaveAttribute("aria-sort", "ascending");
    await expect(header("Outstanding")).not.toHaveAttribute("aria-sort", /./);
    await settled();
    expect(await rowIds(8)).toEqual(await apiIds("service_date"));
    await page.keyboard.press("Space");
    await expect(page).toHaveURL(/[?&]sort=-service_date(&|$)/);
    await expect(header("Service date")).toHaveAttribute("aria-sort", "descending");
    await settled();
    expect(await rowIds(8)).toEqual(await apiIds("-service_date"));

    // Status by its place in the work; a reload keeps the order; customer does not sort.
    await header("Status").getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=status(&|$)/);
    await page.reload();
    await expect(header("Status")).toHaveAttribute("aria-sort", "ascending");
    await settled();
    expect(await rowIds(8)).toEqual(await apiIds("status"));
    await expect(header("Customer").getByRole("button")).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotBoth(page, "jobs-sorted");

    // Back to the newest service date first.
    await jobsTable.getByRole("button", { name: "Newest service date first" }).click();
    await expect(page).not.toHaveURL(/[?&]sort=/);
    await expect(header("Service date")).toHaveAttribute("aria-sort", "descending");
    await settled();
    expect(await rowIds(8)).toEqual(await apiIds("-service_date"));
  });
});

test.describe("a date range that runs backwards", () => {
  test("is named beside its end field on both reports, instead of zeros", async ({ page }) => {
    await signIn(page, "manager", { next: false });
    for (const [path, field, label, card] of [
      ["/reports/jobs", "service_date", "Service", "job_count"],
      ["/reports/service-plans", "created_at", "Created", "plan_count"],
    ] as const) {
      // A link (or a typed date) can carry what the pickers' min and max do not offer.
      await page.goto(`${path}?${field}_range_start=2026-05-02&${field}_range_end=2026-05-01`);
      const to = page.getByLabel(`${label} to`, { exact: true });
      await expect(to).toHaveAttribute("aria-invalid", "true");
      await expect(to).toHaveAccessibleDescription("Must not be before the “from” date.");
      await expect(page.getByText("No report for these filters")).toBeVisible();
      await expect(page.getByTestId(`summary-${card}`)).toHaveCount(0);
      // The API says the same, naming the end bound.
      const response = await page.request.get(
        `/api${path.replace("/reports/jobs", "/reports/serviced-jobs")}`,
        {
          headers: API_HEADERS,
          params: { [`${field}_range_start`]: "2026-05-02", [`${field}_range_end`]: "2026-05-01" },
        },
      );
      expect(response.status()).toBe(400);
      expect((await response.json()).details).toEqual([
        { field: `${field}_range_end`, message: `must not be before ${field}_range_start` },
      ]);
      if (path === "/reports/jobs") await screenshotBoth(page, "jobs-backwards-range");

      // Putting the end after the start brings the numbers back.
      await to.fill("2026-05-31");
      await expect(to).not.toHaveAttribute("aria-invalid", "true");
      await expect(page.getByTestId(`summary-${card}`)).toBeVisible();
    }
  });
});

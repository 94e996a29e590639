import { expect, test, type Page } from "@playwright/test";
import type { ServicePlanReport, ServicedJobReport } from "@/lib/schemas/reports";
import type { ServicePlan } from "@/lib/schemas/service-plans";
import type { ServicedJob } from "@/lib/schemas/serviced-jobs";
import { API_HEADERS, expectAccessible, expectNoPageScrollX, screenshotBoth, signIn } from "./helpers";

/*
 * The customer page's plans, jobs, payments and balance (issue 42, "Customer 360"): the numbers
 * it shows are those the API answers for the customer, and each role sees what it may read.
 */

async function api<T>(page: Page, path: string, params: Record<string, string>): Promise<T> {
  const response = await page.request.get(`/api${path}`, { headers: API_HEADERS, params });
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

/** A demo customer with a plan, and jobs with payments and a refund among them. */
async function customerWithMoney(page: Page): Promise<string> {
  const { data } = await api<{ data: ServicedJob[] }>(page, "/serviced-jobs", {
    only_completed: "false",
    limit: "1000",
  });
  const candidates = data.filter(
    (job) => job.service_plan_id && job.payments.some((p) => p.payment_type === "refund"),
  );
  for (const job of candidates) {
    const plans = await api<{ data: ServicePlan[] }>(page, "/service-plans", {
      customer_id: job.customer.id,
    });
    if (plans.data.length > 0) return job.customer.id;
  }
  throw new Error("the demo data has no customer with a plan and a refund");
}

/** Money as the page formats it (lib/format.ts), in the browser's locale. */
const money = (page: Page, value: number) =>
  page.evaluate(
    (v) => new Intl.NumberFormat(undefined, { style: "currency", currency: "USD" }).format(v),
    value,
  );

test("a manager sees the customer's plans, jobs, payments and balance as the API answers them", async ({
  page,
}) => {
  await signIn(page, "manager", { next: false });
  const customerId = await customerWithMoney(page);
  const [plans, jobs, planReport, jobReport] = await Promise.all([
    api<{ data: ServicePlan[] }>(page, "/service-plans", { customer_id: customerId, limit: "1000" }),
    api<{ data: ServicedJob[] }>(page, "/serviced-jobs", {
      customer_id: customerId,
      only_completed: "false",
      limit: "1000",
    }),
    api<{ data: ServicePlanReport }>(page, "/reports/service-plans", { customer_id: customerId }),
    api<{ data: ServicedJobReport }>(page, "/reports/serviced-jobs", {
      customer_id: customerId,
      only_completed: "false",
    }),
  ]);
  // The balance is the sum of the customer's jobs' outstanding amounts.
  const outstanding = jobs.data.reduce((sum, job) => sum + job.total_outstanding, 0);
  expect(Math.round(outstanding * 100) / 100).toBe(jobReport.data.total_outstanding);

  await page.goto(`/customers/${customerId}`);
  // At the top: the balance, as the report answers it, and the visits still to come.
  await expect(page.getByTestId("customer-balance")).toHaveText(
    await money(page, jobReport.data.total_outstanding),
  );
  const today = new Date().toISOString().slice(0, 10);
  const upcoming = jobs.data.filter(
    (job) =>
      job.service_date !== null &&
      job.service_date.slice(0, 10) >= today &&
      ["Unscheduled", "Scheduled", "In Progress"].includes(job.status),
  );
  const visits = page.getByTestId("customer-upcoming");
  if (upcoming.length === 0) await expect(visits).toHaveText("No visits scheduled.");
  else await expect(visits.getByRole("listitem")).toHaveCount(Math.min(upcoming.length, 5));
  // Above the notes and activity, which come before the details; the form waits behind Edit.
  const top = async (name: string) =>
    (await page.getByRole("heading", { name, exact: true }).first().boundingBox())?.y ?? Infinity;
  expect(await top("Balance")).toBeLessThan(await top("Activity"));
  await expect(page.getByRole("form", { name: "Edit customer" })).toHaveCount(0);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("form", { name: "Edit customer" })).toBeVisible();
  await page.getByRole("form", { name: "Edit customer" }).getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("form", { name: "Edit customer" })).toHaveCount(0);

  const section = page.getByTestId("customer-money");
  await expect(section.getByRole("heading", { name: "Service and billing" })).toBeVisible();
  const card = (key: string) => section.getByTestId(`summary-${key}`);
  await expect(card("sale_value")).toHaveAttribute("data-value", String(planReport.data.sale_value));
  await expect(card("total")).toHaveAttribute("data-value", String(jobReport.data.total));
  await expect(card("total_received")).toHaveAttribute("data-value", String(jobReport.data.total_received));
  await expect(card("total_outstanding")).toHaveAttribute(
    "data-value",
    String(jobReport.data.total_outstanding),
  );
  await expect(card("total_outstanding")).toContainText(await money(page, jobReport.data.total_outstanding));

  // Plans: one row each, then the footer's sums.
  const planTable = section.getByRole("table", { name: "Service plans" });
  await expect(planTable.locator("tbody tr")).toHaveCount(plans.data.length);
  for (const [i, plan] of plans.data.entries()) {
    const row = planTable.locator("tbody tr").nth(i);
    await expect(row).toContainText(plan.service_frequency);
    await expect(row.locator("td").nth(2)).toHaveText(await money(page, plan.sale_value));
    await expect(row.locator("td").nth(4)).toHaveText(String(plan.num_completed_jobs));
    await expect(row.locator("td").nth(5)).toHaveText(String(plan.num_pending_jobs));
  }
  await expect(planTable.getByTestId("sum-visits_left")).toHaveAttribute(
    "data-value",
    String(planReport.data.num_pending_jobs),
  );

  // Jobs, newest first, with their money.
  const jobTable = section.getByRole("table", { name: "Jobs" });
  await expect(jobTable.locator("tbody tr")).toHaveCount(jobs.data.length);
  for (const [i, job] of jobs.data.entries()) {
    const cells = jobTable.locator("tbody tr").nth(i).locator("td");
    await expect(cells.nth(1)).toHaveText(job.status);
    await expect(cells.nth(3)).toHaveText(await money(page, job.total));
    await expect(cells.nth(4)).toHaveText(await money(page, job.total_received));
    await expect(cells.nth(5)).toHaveText(await money(page, job.total_outstanding));
  }
  await expect(jobTable.getByTestId("sum-total_outstanding")).toHaveAttribute(
    "data-value",
    String(jobReport.data.total_outstanding),
  );

  // Every payment and refund of those jobs; refunds say so and count negative.
  const payments = jobs.data.flatMap((job) => job.payments);
  const paymentTable = section.getByRole("table", { name: "Payments and refunds" });
  await expect(paymentTable.locator("tbody tr")).toHaveCount(payments.length);
  const refunds = payments.filter((p) => p.payment_type === "refund");
  await expect(paymentTable.getByText("Refund", { exact: true })).toHaveCount(refunds.length);
  const refund = refunds[0];
  if (refund) await expect(paymentTable).toContainText(await money(page, -refund.amount));

  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);
  await screenshotBoth(page, "manager-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await screenshotBoth(page, "manager");

  // On a phone: cards, not a clipped table.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(section.getByRole("list", { name: "Jobs" }).getByRole("listitem")).toHaveCount(
    jobs.data.length,
  );
  await expect(section.getByRole("table")).toHaveCount(0);
  await expectNoPageScrollX(page);
  await expectAccessible(page);
});

test("a technician sees the customer's jobs read-only, without plans", async ({ page }) => {
  await signIn(page, "manager", { next: false });
  const customerId = await customerWithMoney(page);
  const jobs = await api<{ data: ServicedJob[] }>(page, "/serviced-jobs", {
    customer_id: customerId,
    only_completed: "false",
    limit: "1000",
  });
  await page.context().clearCookies();

  await signIn(page, "technician", { next: false });
  await page.goto(`/customers/${customerId}`);
  const section = page.getByTestId("customer-money");
  const jobTable = section.getByRole("table", { name: "Jobs" });
  await expect(jobTable.locator("tbody tr")).toHaveCount(jobs.data.length);
  await expect(section.getByTestId("summary-total_outstanding")).toHaveAttribute("data-value", /\d/);
  // No plans (no service_plans:read), and nothing to edit.
  await expect(section.getByRole("heading", { name: "Service plans" })).toHaveCount(0);
  await expect(section.getByTestId("summary-sale_value")).toHaveCount(0);
  await expect(page.getByRole("form")).toHaveCount(0);
  await expect(page.locator("form")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /save/i })).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBoth(page, "technician");
});

test("a sales rep sees the customer without its jobs or plans", async ({ page }) => {
  await signIn(page, "manager", { next: false });
  const customerId = await customerWithMoney(page);
  await page.context().clearCookies();
  await signIn(page, "sales_rep", { next: false });
  await page.goto(`/customers/${customerId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Customer id")).toBeVisible();
  await expect(page.getByTestId("customer-money")).toHaveCount(0);
});

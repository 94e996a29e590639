import { expect, test, type Page } from "@playwright/test";
import { axe, screenshotBoth, signIn, type DemoRole } from "./helpers";

/*
 * Every page passes axe (WCAG 2.1 A and AA rules) with no serious or critical violation, in the
 * light theme and in the dark one that follows the system setting, for the role that sees it.
 */

const THEMES = ["light", "dark"] as const;

/** The pages of the product; a record page is reached through its list. */
const PAGES: { path: string; role: DemoRole; ready: (page: Page) => Promise<void> }[] = [
  { path: "/leads", role: "sales_rep", ready: tableRows("Leads") },
  { path: "/leads/:first", role: "sales_rep", ready: heading() },
  { path: "/customers", role: "manager", ready: tableRows("Customers") },
  { path: "/customers/:first", role: "manager", ready: heading() },
  { path: "/reports/service-plans", role: "manager", ready: heading() },
  { path: "/reports/jobs", role: "manager", ready: heading() },
  // The demo data's last three months: this month may have no field activity to show.
  {
    path: "/reports/field-activity?from=2026-08-18&to=2026-11-16",
    role: "manager",
    ready: tableRows("Reps"),
  },
  { path: "/map", role: "technician", ready: heading() },
  { path: "/import", role: "manager", ready: uploadForm() },
  { path: "/settings", role: "admin", ready: heading() },
  { path: "/settings/profile", role: "sales_rep", ready: heading() },
];

function tableRows(name: string) {
  return async (page: Page) => {
    await expect(page.getByRole("table", { name }).getByRole("row").nth(1)).toBeVisible();
  };
}

/** The import page once it knows no import is running: its upload form. */
function uploadForm() {
  return async (page: Page) => {
    await expect(page.getByLabel("CSV file", { exact: true })).toBeVisible();
  };
}

function heading() {
  return async (page: Page) => {
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  };
}

/** The serious and critical violations of the page as it is now, one line each, for a readable failure. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Settled: no skeletons or loading rows left.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const results = await axe(page).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} ${n.failureSummary ?? ""}`));
}

/** Opens a path; `:first` is the first record of its list, followed as a user would. */
async function open(page: Page, path: string) {
  if (!path.endsWith("/:first")) {
    await page.goto(path);
    return;
  }
  const list = path.slice(0, -"/:first".length);
  await page.goto(list);
  const link = page.getByRole("table").getByRole("row").nth(1).getByRole("link").first();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${list}/[^/?]+`));
}

for (const theme of THEMES) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test("the sign-in page and the API reference", async ({ page }) => {
      // The reference is one long page of every endpoint: axe takes a while over it.
      test.setTimeout(180_000);
      await page.goto("/sign-in");
      await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto("/docs");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      if (theme === "dark") await screenshotBoth(page, "docs-dark", { fullPage: false });
    });

    test("the signed-out pages: forgot password, an invite's and a reset link's", async ({ page }) => {
      // A made-up token: the page renders its form and checks the token only when sent.
      for (const [path, heading] of [
        ["/forgot-password", "Forgot your password?"],
        ["/invite/not-a-real-token", "Join your team on FieldCRM"],
        ["/reset-password/not-a-real-token", "Choose a new password"],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      }
    });

    for (const { path, role, ready } of PAGES) {
      test(`${path} as ${role}`, async ({ page }) => {
        await signIn(page, role, { next: false });
        await open(page, path);
        await ready(page);
        expect(await seriousViolations(page)).toEqual([]);
        if (theme === "dark") {
          const name = `${path.replace(/\?.*$/, "").replace(/[/:]+/g, "-").replace(/^-/, "")}-dark`;
          await screenshotBoth(page, name, { fullPage: false });
        }
      });
    }
  });
}

import { expect, test, type Page } from "@playwright/test";
import { DEMO_ANCHOR } from "@/lib/seed/demo";
import {
  API_HEADERS,
  expectAccessible,
  expectNoPageScrollX,
  screenshotBoth,
  signIn,
  unique,
  type DemoRole,
} from "./helpers";
import { apiGet, expectCard, exportCsv, money } from "./report-helpers";

// Knock to cash (E7): the page shows the API's numbers for its filters, compared with the API
// asked with the page's session, so no number is written down here.

interface Numbers {
  knocks: number;
  knocks_by_pin_type: Record<string, number>;
  leads: number;
  won: number;
  customers: number;
  sale_value: number;
  collected: number;
}
interface Report {
  data: (Numbers & { user: { user_id: string; name: string; email: string } })[];
  totals: Numbers;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
/** The demo data's last three months: knocks, leads, sales and payments, whatever today is. */
const DEMO_RANGE = {
  from: day(new Date(DEMO_ANCHOR.getTime() - 90 * 86_400_000)),
  to: day(DEMO_ANCHOR),
};

const report = (page: Page, params: Record<string, string>) =>
  apiGet<Report>(page, "/api/reports/field-activity", params);

/** The cards, the funnel and the table's footer all show the API's totals. */
async function expectTotals(page: Page, totals: Numbers) {
  for (const key of ["knocks", "leads", "won", "customers"] as const)
    await expectCard(page, key, totals[key]);
  await expectCard(page, "sale_value", totals.sale_value, { money: true });
  await expectCard(page, "collected", totals.collected, { money: true });
  await expect(page.getByTestId("funnel-knocks")).toHaveAttribute("data-value", String(totals.knocks));
  await expect(page.getByTestId("funnel-customers")).toHaveAttribute("data-value", String(totals.customers));
  await expect(page.getByTestId("funnel-collected")).toContainText(await money(page, totals.collected));
  for (const key of ["knocks", "leads", "won", "customers", "collected"] as const) {
    await expect(page.getByTestId(`sum-${key}`)).toHaveAttribute("data-value", String(totals[key]));
  }
  for (const [pinTypeId, n] of Object.entries(totals.knocks_by_pin_type)) {
    await expect(page.getByTestId(`sum-outcome:${pinTypeId}`)).toHaveAttribute("data-value", String(n));
  }
}

/** The reps' names in the table, top to bottom. */
async function rowNames(page: Page): Promise<string[]> {
  return page.getByRole("table", { name: "Reps" }).getByTestId("rep-name").allTextContents();
}

async function setRange(page: Page, range: { from: string; to: string }) {
  // "To" first: the pickers bound each other, and the range must never run backwards.
  await page.getByLabel("To", { exact: true }).fill(range.to);
  await page.getByLabel("From", { exact: true }).fill(range.from);
  await expect(page).toHaveURL(new RegExp(`[?&]from=${range.from}(&|$)`));
  await expect(page).toHaveURL(new RegExp(`[?&]to=${range.to}(&|$)`));
}

test.describe("knock to cash report", () => {
  test("shows the API's totals, funnel and leaderboard for the range and territory, and exports them", async ({
    page,
  }) => {
    await signIn(page, "manager");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knock to cash" }).click();
    await expect(page).toHaveURL(/\/reports\/field-activity$/);
    await expect(page.getByRole("heading", { level: 1, name: "Knock to cash" })).toBeVisible();

    // This month (UTC) by default: the page shows what the API says for it, activity or none.
    const now = new Date();
    const month = {
      from: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))),
      to: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0))),
    };
    await expect(page.getByLabel("From", { exact: true })).toHaveValue(month.from);
    await expect(page.getByLabel("To", { exact: true })).toHaveValue(month.to);
    const thisMonth = await report(page, month);
    if (thisMonth.data.length === 0) {
      await expect(page.getByTestId("field-activity-empty")).toContainText("No field activity in this range");
    } else {
      await expectTotals(page, thisMonth.totals);
    }

    // A range over the demo data: rows, and the page's totals are the API's.
    await setRange(page, DEMO_RANGE);
    const all = await report(page, DEMO_RANGE);
    expect(all.data.length, "the demo data has field activity").toBeGreaterThan(1);
    expect(all.totals.knocks).toBeGreaterThan(0);
    await expectTotals(page, all.totals);
    const table = page.getByRole("table", { name: "Reps" });
    await expect(table.locator("tbody tr")).toHaveCount(all.data.length);
    // The leaderboard: by money collected, as the API orders it.
    expect(await rowNames(page)).toEqual(all.data.map((r) => r.user.name || r.user.email));
    await expect(table.getByRole("columnheader", { name: "Collected" })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    // Not the date picker's focus ring and selection in the picture.
    await page.getByLabel("From", { exact: true }).blur();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotBoth(page, "report");
    await expectAccessible(page);

    // Sorting by a header, kept in the URL; knocks, most first.
    await table.getByRole("columnheader", { name: "Knocks", exact: true }).getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=-knocks(&|$)/);
    const byKnocks = [...all.data].sort((a, b) => b.knocks - a.knocks);
    expect((await rowNames(page))[0]).toBe(byKnocks[0]!.user.name || byKnocks[0]!.user.email);

    // The CSV: the header (then a column per pin type knocked, headed by its label), a row per rep
    // in the leaderboard's order, and the totals.
    const rows = await exportCsv(page);
    const header = rows[0]!;
    expect(header.slice(0, 9)).toEqual([
      "user_id",
      "name",
      "email",
      "knocks",
      "leads",
      "won",
      "customers",
      "sale_value",
      "collected",
    ]);
    const pinTypes = (await apiGet<{ data: { id: string; label: string }[] }>(page, "/api/pin-types")).data;
    const typeColumns = header.slice(9).map((label) => pinTypes.find((type) => type.label === label)!.id);
    const knocked = Object.entries(all.totals.knocks_by_pin_type).filter(([, n]) => n > 0);
    expect([...typeColumns].sort()).toEqual(knocked.map(([id]) => id).sort());
    expect(rows.length).toBe(all.data.length + 2);
    all.data.forEach((row, i) => {
      const line = rows[i + 1]!;
      expect(line[0]).toBe(row.user.user_id);
      expect(Number(line[3])).toBe(row.knocks);
      expect(typeColumns.map((_, j) => Number(line[9 + j]))).toEqual(
        typeColumns.map((id) => row.knocks_by_pin_type[id] ?? 0),
      );
      expect(Number(line[8])).toBe(row.collected);
    });
    const total = rows.at(-1)!;
    expect(total[1]).toBe("Total");
    expect([3, 4, 5, 6, 7, 8].map((i) => Number(total[i]))).toEqual([
      all.totals.knocks,
      all.totals.leads,
      all.totals.won,
      all.totals.customers,
      all.totals.sale_value,
      all.totals.collected,
    ]);

    // A territory over part of Austin: fewer knocks, and again the API's numbers.
    const name = `Downtown ${unique()}`;
    const created = await page.request.post("/api/territories", {
      headers: API_HEADERS,
      data: {
        name,
        polygon: {
          type: "Polygon",
          coordinates: [
            [
              [-97.8, 30.22],
              [-97.7, 30.22],
              [-97.7, 30.3],
              [-97.8, 30.3],
            ],
          ],
        },
      },
    });
    expect(created.status()).toBe(201);
    const territory = ((await created.json()) as { data: { id: string } }).data;
    await page.reload();
    await page.getByLabel("Territory", { exact: true }).selectOption({ label: name });
    await expect(page).toHaveURL(new RegExp(`[?&]territory_id=${territory.id}(&|$)`));
    const inside = await report(page, { ...DEMO_RANGE, territory_id: territory.id });
    expect(inside.totals.knocks).toBeLessThan(all.totals.knocks);
    if (inside.data.length > 0) await expectTotals(page, inside.totals);
    else await expect(page.getByTestId("field-activity-empty")).toBeVisible();
    // The export follows the territory too.
    const territoryRows = await exportCsv(page);
    expect(territoryRows.length).toBe(inside.data.length + 2);

    // A range with nothing in it: the empty state, no table.
    const future = { from: "2099-01-01", to: "2099-01-31" };
    await page.getByLabel("Territory", { exact: true }).selectOption("");
    await setRange(page, future);
    expect((await report(page, future)).data).toEqual([]);
    await expect(page.getByTestId("field-activity-empty")).toBeVisible();
    await expect(page.getByRole("table", { name: "Reps" })).toHaveCount(0);
    await page.getByLabel("From", { exact: true }).blur();
    await screenshotBoth(page, "empty");

    // "Clear filters" goes back to this month, all territories.
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page.getByLabel("From", { exact: true })).toHaveValue(month.from);
    await expect(page).not.toHaveURL(/[?&](from|to|territory_id)=/);
  });

  test("on a phone: cards per rep, totals and funnel, nothing wider than the screen", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, "admin", { next: false });
    await page.goto(`/reports/field-activity?from=${DEMO_RANGE.from}&to=${DEMO_RANGE.to}`);
    const all = await report(page, DEMO_RANGE);
    await expectCard(page, "collected", all.totals.collected, { money: true });
    await expect(page.getByTestId("funnel-knocks")).toHaveAttribute("data-value", String(all.totals.knocks));
    // Below 640 px the leaderboard is a list of cards, a rep each, in the leaderboard's order.
    const cards = page.getByRole("list", { name: "Reps" }).getByRole("listitem");
    await expect(cards).toHaveCount(all.data.length);
    const first = all.data[0]!;
    await expect(cards.first()).toContainText(first.user.name);
    await expect(cards.first()).toContainText(await money(page, first.collected));
    await expectNoPageScrollX(page);
    await page.screenshot({ path: "test-results/screenshots/field-activity-phone-390.png", fullPage: true });
  });
});

test.describe("a range that runs backwards", () => {
  test("is named beside To, with no numbers until it is put right", async ({ page }) => {
    await signIn(page, "manager", { next: false });
    // A link (or a typed date) can carry what the pickers' min and max do not offer.
    await page.goto("/reports/field-activity?from=2026-05-02&to=2026-05-01");
    const to = page.getByLabel("To", { exact: true });
    await expect(to).toHaveAttribute("aria-invalid", "true");
    await expect(to).toHaveAccessibleDescription("Must not be before the “from” date.");
    await expect(page.getByText("No report for these filters")).toBeVisible();
    await expect(page.getByTestId("summary-knocks")).toHaveCount(0);
    await expect(page.getByRole("table", { name: "Reps" })).toHaveCount(0);
    await to.fill("2026-05-31");
    await expect(to).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("No report for these filters")).toHaveCount(0);
  });
});

test.describe("who may read it", () => {
  for (const role of ["sales_rep", "technician"] as const satisfies readonly DemoRole[]) {
    test(`a ${role} has no nav entry and is not allowed in`, async ({ page }) => {
      await signIn(page, role);
      await expect(page.getByRole("link", { name: "Knock to cash" })).toHaveCount(0);
      await page.goto("/reports/field-activity");
      await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
      await expect(page.getByText("Your role cannot use the Knock to cash report")).toBeVisible();
      const res = await page.request.get("/api/reports/field-activity", { headers: API_HEADERS });
      expect(res.status()).toBe(403);
    });
  }
});

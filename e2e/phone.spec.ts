import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  API_HEADERS,
  demoUser,
  expectAccessible,
  expectNoPageScrollX,
  screenshotBoth,
  signIn,
  unique,
  type DemoRole,
} from "./helpers";

// The dashboard on a phone (390 × 844): lists as cards with selection and sorting, long values cut
// with a title, no sideways scroll; at 1440 px the table is back.

test.use({ viewport: { width: 390, height: 844 } });
const DESKTOP = { width: 1440, height: 900 };

/** The page has loaded its data: a heading, and no skeleton or loading bar left. */
async function settled(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** A phone number no demo record has (a lead with the same phone would be updated instead). */
function uniquePhone() {
  const digits = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  return { digits, display: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` };
}

async function create(page: Page, resource: "leads" | "customers", body: Record<string, unknown>) {
  const res = await page.request.post(`/api/${resource}`, { headers: API_HEADERS, data: body });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string };
}

const cards = (page: Page, name: "Leads" | "Customers") =>
  page.getByRole("list", { name }).getByRole("listitem");
const card = (page: Page, name: "Leads" | "Customers", text: string) =>
  cards(page, name).filter({ hasText: text });
/** The value of a card's field, by its label. */
const field = (card: Locator, label: string) =>
  card.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd");

test("leads are cards: name, tap-to-call phone, stage, follow-up and owner", async ({ page }) => {
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const rep = demoUser("sales_rep");
  const phone = uniquePhone();
  const name = `Casey Card ${id}`;
  const lead = await create(page, "leads", {
    name,
    phone: phone.display,
    stage: "contacted",
    follow_up_date: "2027-01-15",
    assigned_to: rep.id,
  });

  await page.goto(`/leads?search=${id}`);
  await settled(page);
  const leadCard = card(page, "Leads", name);
  await expect(leadCard).toHaveCount(1);
  // One rendering at a time: no table (not even hidden) beside the cards.
  await expect(page.locator("table")).toHaveCount(0);
  await expect(leadCard.getByRole("link", { name })).toHaveAttribute("href", `/leads/${lead.id}`);
  await expect(leadCard.getByRole("link", { name: phone.display })).toHaveAttribute(
    "href",
    `tel:${phone.digits}`,
  );
  await expect(field(leadCard, "Stage")).toHaveText("Contacted");
  await expect(field(leadCard, "Follow-up date")).toContainText("2027");
  await expect(field(leadCard, "Owner")).toHaveText(rep.name);
  await expectNoPageScrollX(page);
  await expectAccessible(page);
  await screenshotBoth(page, "leads-cards");

  // A tap on the card (not on a link) opens the lead, as a click on a table row does.
  await field(leadCard, "Stage").click();
  await expect(page).toHaveURL(new RegExp(`/leads/${lead.id}$`));
  await settled(page);
  await expect(page.getByRole("link", { name: phone.display })).toHaveAttribute(
    "href",
    `tel:${phone.digits}`,
  );
});

test("a card's checkbox selects the lead for the bulk bar; Sort by sorts as the headers do", async ({
  page,
}) => {
  await signIn(page, "sales_rep", { next: false });
  const id = unique();
  const names = [`Alpha Card ${id}`, `Bravo Card ${id}`];
  for (const name of names) await create(page, "leads", { name, phone: uniquePhone().display });

  await page.goto(`/leads?search=${id}`);
  await settled(page);
  await expect(cards(page, "Leads")).toHaveCount(2);

  // Sort by: the URL's `sort`, the same the table's headers set.
  await page.getByLabel("Sort by").selectOption({ label: "Name, descending" });
  await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
  await settled(page);
  await expect(cards(page, "Leads").getByRole("link", { name: /Card/ })).toHaveText([...names].reverse());
  await page.getByLabel("Sort by").selectOption({ label: "Name, ascending" });
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await settled(page);
  await expect(cards(page, "Leads").getByRole("link", { name: /Card/ })).toHaveText(names);

  // Selection: one card, then the whole page.
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await card(page, "Leads", names[0]!)
    .getByRole("checkbox", { name: `Select ${names[0]}` })
    .check();
  await expect(bar).toContainText("1 lead selected");
  await page.getByRole("checkbox", { name: "Select all leads on this page" }).check();
  await expect(bar).toContainText("2 leads selected");
  await expectNoPageScrollX(page);
  await page.screenshot({ path: "test-results/screenshots/phone-leads-selected-390.png", fullPage: true });

  await bar.getByRole("button", { name: "Add tag…" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a tag to 2 leads" });
  await dialog.getByLabel("Tag").fill(`phone-${id}`);
  await dialog.getByRole("button", { name: "Tag 2 leads" }).click();
  await expect(page.getByText("Tagged: 2 leads changed.")).toBeVisible();
  const res = await page.request.get(`/api/leads?tags=phone-${id}`, { headers: API_HEADERS });
  expect(((await res.json()) as { pagination: { total: number } }).pagination.total).toBe(2);

  // On a desktop the same view is the table, sorted by the same URL.
  await page.setViewportSize(DESKTOP);
  const table = page.getByRole("table", { name: "Leads" });
  await expect(table.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending");
  await expect(page.getByRole("list", { name: "Leads" })).toHaveCount(0);
  await expect(page.getByLabel("Sort by")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Columns" })).toBeVisible();
});

/**
 * Both themes at 1440 and 390 px (the viewport only: the bulk bar's place in it is the point), each
 * theme checked by axe at the phone's width.
 */
async function screenshotThemes(page: Page, name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page);
    await screenshotBoth(page, `${name}-${colorScheme}`, { fullPage: false });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

for (const list of [
  { name: "Leads", role: "sales_rep", noun: "leads" },
  { name: "Customers", role: "manager", noun: "customers" },
] as const) {
  test(`${list.noun}: records on the first screen, filters behind a button, bulk bar in view`, async ({
    page,
  }) => {
    // Twelve records, and axe and screenshots in both themes at three states.
    test.setTimeout(180_000);
    await signIn(page, list.role, { next: false });
    await page.goto(`/${list.noun}`);
    await settled(page);
    // The first record is whole on the first screen; the filters but the search wait behind a button.
    await expect(cards(page, list.name).first()).toBeInViewport({ ratio: 1 });
    await expect(page.getByLabel("Search")).toBeVisible();
    await expect(page.getByLabel("Tags")).toBeHidden();
    const filters = page.getByRole("button", { name: /^Filters/ });
    await expect(filters).toHaveText("Filters");
    await expect(filters).toHaveAttribute("aria-expanded", "false");
    await screenshotThemes(page, `${list.noun}-first-screen`);
    await filters.click();
    await expect(filters).toHaveAttribute("aria-expanded", "true");
    await page.getByLabel("Show archived").check();
    await expect(page).toHaveURL(/[?&]archived=true(&|$)/);
    await settled(page);
    await expect(filters).toHaveText("Filters (1)");
    await screenshotThemes(page, `${list.noun}-filters-open`);
    await page.getByLabel("Show archived").uncheck();
    await expect(filters).toHaveText("Filters");
    await filters.click();
    await expect(page.getByLabel("Tags")).toBeHidden();

    // Twelve records of this test's own; the ninth card is far below the bar's place above the list.
    const id = unique();
    await Promise.all(
      Array.from({ length: 12 }, (_, n) => {
        const [i, phone] = [n + 1, uniquePhone().display];
        return create(
          page,
          list.noun,
          list.noun === "leads"
            ? { name: `Bulk Card ${i} ${id}`, phone }
            : { first_name: "Bulk", last_name: `Card ${i} ${id}`, phone },
        );
      }),
    );
    await page.goto(`/${list.noun}?search=${id}&sort=name`);
    await settled(page);
    await expect(cards(page, list.name)).toHaveCount(12);
    const bar = page.getByRole("region", { name: "Bulk actions" });
    for (let i = 1; i <= 9; i++) {
      await page.getByRole("checkbox", { name: `Select Bulk Card ${i} ${id}` }).check();
    }
    // After the ninth tick, the bar is on screen (at its bottom) and says how many are selected.
    await expect(bar).toBeInViewport({ ratio: 1 });
    await expect(bar).toContainText(`9 ${list.noun} selected`);
    const box = (await bar.boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(844 - box.height - 40);
    await expectNoPageScrollX(page);
    await screenshotThemes(page, `${list.noun}-bulk-bar`);

    // On a desktop (a short window) the bar stays under the header while the table scrolls.
    await page.setViewportSize({ width: 1440, height: 360 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const barBottom = await bar.evaluate((el) => el.getBoundingClientRect().bottom);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    // Scrolled past the bar's own place: without sticking it would be off the screen.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(barBottom);
    await expect(bar).toBeInViewport({ ratio: 1 });

    // On the phone, its outcome (with Undo) shows in view where the bar was.
    await page.setViewportSize({ width: 390, height: 844 });
    await bar.getByRole("button", { name: "Archive…", exact: true }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: `Archive 9 ${list.noun}` })
      .click();
    await expect(page.getByText(`Archived: 9 ${list.noun} changed.`)).toBeInViewport();
    await expect(bar).toHaveCount(0);
  });
}

test("customers are cards: name, tap-to-call phone, status, city", async ({ page }) => {
  await signIn(page, "manager", { next: false });
  const id = unique();
  const phone = uniquePhone();
  const customer = await create(page, "customers", {
    first_name: "Robin",
    last_name: `Card ${id}`,
    phone: phone.display,
    property_city: "Austin",
    property_state: "TX",
    status: "inactive",
  });

  await page.goto(`/customers?search=${id}`);
  await settled(page);
  const customerCard = card(page, "Customers", id);
  await expect(customerCard).toHaveCount(1);
  await expect(page.locator("table")).toHaveCount(0);
  await expect(customerCard.getByRole("link", { name: `Robin Card ${id}` })).toHaveAttribute(
    "href",
    `/customers/${customer.id}`,
  );
  await expect(customerCard.getByRole("link", { name: phone.display })).toHaveAttribute(
    "href",
    `tel:${phone.digits}`,
  );
  await expect(field(customerCard, "Status")).toHaveText("Inactive");
  await expect(field(customerCard, "City")).toHaveText("Austin, TX");
  // A manager can archive customers in bulk: each card has its checkbox, as a lead's.
  await expect(customerCard.getByRole("checkbox", { name: `Select Robin Card ${id}` })).toHaveCount(1);
  await expectNoPageScrollX(page);
  await expectAccessible(page);
  await screenshotBoth(page, "customers-cards");
});

test.describe("dark theme", () => {
  test.use({ colorScheme: "dark" });

  for (const { list, role } of [
    { list: "Leads", role: "sales_rep" },
    { list: "Customers", role: "manager" },
  ] as const) {
    test(`the ${list.toLowerCase()} cards pass axe and keep the palette`, async ({ page }) => {
      await signIn(page, role, { next: false });
      await page.goto(`/${list.toLowerCase()}`);
      await settled(page);
      await expect(cards(page, list).first()).toBeVisible();
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/screenshots/phone-${list.toLowerCase()}-dark-390.png` });
    });
  }
});

const LONG = (id: string) => ({
  name: `${"Wolfeschlegelsteinhausenbergerdorff".repeat(6)}${id}`,
  email: `${"a".repeat(40)}.${id}@${"sub".repeat(20)}.${"domain".repeat(10)}.example.test`,
  street: `1234 ${"Extraordinarily".repeat(8)} Boulevard`,
  city: "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch",
});

test("a lead's long name, email, phone, stage and address are cut in its card, whole on its page", async ({
  page,
}) => {
  const id = unique();
  const long = LONG(id);
  await signIn(page, "sales_rep", { next: false });
  const lead = await create(page, "leads", {
    name: long.name,
    email: long.email,
    phone: `${uniquePhone().display} ext. 12345678901234567890`,
    address_street1: long.street,
    address_city: long.city,
    stage: `Waiting on a very long custom stage name ${id} that is not in the pipeline`,
  });
  await page.goto(`/leads?search=${id}`);
  await settled(page);
  await expect(card(page, "Leads", id).getByRole("link", { name: long.name })).toHaveAttribute(
    "title",
    long.name,
  );
  await expectNoPageScrollX(page);
  await screenshotBoth(page, "leads-long-values");
  await page.goto(`/leads/${lead.id}`);
  await settled(page);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(long.name);
  await expectNoPageScrollX(page);
  await screenshotBoth(page, "lead-long-values");
});

test("a customer's long name, company, email and address are cut in its card, whole on its page", async ({
  page,
}) => {
  const id = unique();
  const long = LONG(id);
  await signIn(page, "manager", { next: false });
  const customer = await create(page, "customers", {
    first_name: long.name,
    company_name: `${"Incorporated".repeat(12)} ${id}`,
    email: long.email,
    property_street1: long.street,
    property_city: long.city,
  });
  await page.goto(`/customers?search=${id}`);
  await settled(page);
  const customerCard = card(page, "Customers", id);
  await expect(customerCard.getByRole("link", { name: long.name })).toHaveAttribute("title", long.name);
  await expect(field(customerCard, "Email").locator("[title]")).toHaveAttribute("title", long.email);
  await expectNoPageScrollX(page);
  await screenshotBoth(page, "customers-long-values");
  await page.goto(`/customers/${customer.id}`);
  await settled(page);
  await expectNoPageScrollX(page);
  await screenshotBoth(page, "customer-long-values");
});

/** The pages of the product, each as the role that sees it; a record page is reached from its list. */
const PAGES: { path: string; role: DemoRole | null }[] = [
  { path: "/sign-in", role: null },
  { path: "/docs", role: null },
  { path: "/leads", role: "sales_rep" },
  { path: "/leads?view=board", role: "sales_rep" },
  { path: "/leads/:first", role: "sales_rep" },
  { path: "/customers", role: "manager" },
  { path: "/customers/:first", role: "manager" },
  { path: "/reports/service-plans", role: "manager" },
  { path: "/reports/jobs", role: "manager" },
  // The demo data's last three months: this month may have no field activity to show.
  { path: "/reports/field-activity?from=2026-08-18&to=2026-11-16", role: "manager" },
  { path: "/map", role: "technician" },
  { path: "/settings", role: "admin" },
];

for (const { path, role } of PAGES) {
  test(`${path} does not scroll sideways${role ? ` (${role})` : ""}`, async ({ page }) => {
    if (role) await signIn(page, role, { next: false });
    if (path.endsWith("/:first")) {
      const list = path.slice(0, -"/:first".length);
      await page.goto(list);
      await cards(page, list === "/leads" ? "Leads" : "Customers")
        .first()
        .getByRole("link")
        .first()
        .click();
      await expect(page).toHaveURL(new RegExp(`${list}/[^/?]+$`));
    } else {
      await page.goto(path);
    }
    await settled(page);
    await expectNoPageScrollX(page);
    // The API reference is one very long page: its top is enough to look at.
    const name = path.replace(/[/:?=&]+/g, "-").replace(/^-/, "");
    await screenshotBoth(page, name, { fullPage: path !== "/docs" });
  });
}

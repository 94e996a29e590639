import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  API_HEADERS,
  atRest,
  demoUser,
  expectAccessible,
  newUserPage,
  signIn,
  signOut,
  unique,
} from "./helpers";

/*
 * Accounts (issue #56): an admin changes a role and it applies at the user's next request; a user
 * ends one of their sessions; the audit log shows the change and filters it.
 */

// Two browsers and several reloads each: more than the default minute on a busy machine.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const SHOTS = process.env.SHOTS_DIR ?? path.join(process.cwd(), "test-results", "screenshots");

/** Screenshots at 1440 and 390 px, light and dark (the dashboard follows the system scheme). */
async function shots(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await atRest(page);
      await page.screenshot({
        path: path.join(SHOTS, `account-admin-${name}-${size.width}-${colorScheme}.png`),
        fullPage: true,
      });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  if (original) await page.setViewportSize(original);
}

const person = {
  name: `Rae Role ${unique()}`,
  email: `rae-${unique()}@example.test`,
  password: "rae's password 1",
};

test("an admin's role change applies to the user's open session at its next request", async ({
  page,
  browser,
}) => {
  await signIn(page, "admin", { next: "/settings" });
  const created = await page.request.post("/api/settings/users", {
    headers: API_HEADERS,
    data: { ...person, role: "sales_rep" },
  });
  expect(created.status()).toBe(201);

  const rae = await newUserPage(browser);
  await signIn(rae, person, { next: false });
  await rae.goto("/settings");
  await expect(rae.getByText(/only administrators/i).first()).toBeVisible();

  await page.reload();
  const role = page.getByRole("combobox", { name: `Role of ${person.name}` }).first();
  await expect(role).toHaveValue("sales_rep");
  await role.selectOption("admin");
  await expect(page.getByText(`${person.name} is now admin`)).toBeVisible();

  // Rae's same session, next request: settings are open to her now.
  await rae.reload();
  await expect(rae.getByRole("heading", { name: "API keys" })).toBeVisible();
  const session = await rae.request.get("/api/auth/session", { headers: API_HEADERS });
  expect((await session.json()).user.role).toBe("admin");

  // And back to sales rep: closed again at her next request.
  await role.selectOption("sales_rep");
  await expect(page.getByText(`${person.name} is now sales rep`)).toBeVisible();
  await rae.reload();
  await expect(rae.getByRole("heading", { name: "API keys" })).toHaveCount(0);
  await signOut(rae);
  await rae.context().close();
});

test("a user ends one of their sessions; that browser is signed out at its next request", async ({
  page,
  browser,
}) => {
  await signIn(page, person, { next: false });
  const other = await newUserPage(browser);
  await signIn(other, person, { next: false });

  await page.goto("/settings/profile");
  const sessions = page.getByRole("list", { name: "Your sessions" });
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await expect(sessions.getByText("This device")).toBeVisible();
  await shots(page, "profile-sessions");
  await expectAccessible(page);

  await sessions.getByRole("button", { name: /^End session/ }).click();
  await expect(page.getByText("Session ended")).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);

  await other.goto("/leads");
  await expect(other).toHaveURL(/\/sign-in/);
  await other.context().close();
});

test("the audit log shows the role changes and filters them by kind and person", async ({ page }) => {
  await signIn(page, "admin", { next: "/settings" });
  const log = page.getByRole("region", { name: "Audit log" });
  await log.scrollIntoViewIfNeeded();
  const table = log.getByRole("table", { name: "Audit log" });
  await expect(table.getByRole("row").filter({ hasText: person.name }).first()).toBeVisible();

  await log.getByLabel("Kind").selectOption("user.role_changed");
  const rows = table.getByRole("row").filter({ hasText: "Role changed" });
  await expect(rows.first()).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(1 + (await rows.count()));
  // Newest first: the demotion, then the promotion.
  const rae = rows.filter({ hasText: person.name });
  await expect(rae.nth(0)).toContainText("admin → sales_rep");
  await expect(rae.nth(1)).toContainText("sales_rep → admin");

  // By person: only what the demo admin did.
  const admin = demoUser("admin");
  await log.getByLabel("Person").selectOption({ label: admin.name });
  await expect(rae.first()).toBeVisible();
  const whoCells = table.getByRole("row").locator("td:nth-child(2)");
  for (const who of await whoCells.allTextContents()) expect(who).toBe(admin.name);
  await log.getByLabel("Person").selectOption({ label: person.name });
  await expect(log.getByText("No changes match")).toBeVisible();
  await log.getByLabel("Person").selectOption({ index: 0 });
  await expect(rae.first()).toBeVisible();
  await shots(page, "settings-audit-log");
  await expectAccessible(page);

  // The export answers the same filter as a CSV.
  const csv = await page.request.get("/api/settings/audit-log/export?kind=user.role_changed", {
    headers: API_HEADERS,
  });
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines.length).toBeGreaterThanOrEqual(3);
  expect(lines.slice(1).every((line) => line.includes('"user.role_changed"'))).toBe(true);
});

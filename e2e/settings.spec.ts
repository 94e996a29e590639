import { expect, test } from "@playwright/test";
import {
  API_HEADERS,
  newUserPage,
  screenshotBoth,
  signIn,
  signInWithForm,
  signInError,
  unique,
} from "./helpers";

test.describe.configure({ mode: "serial" });

test("an admin creates an API key, uses it, and revokes it", async ({ page }) => {
  await signIn(page, "admin", { next: "/settings" });
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Users" })).toBeVisible();
  await screenshotBoth(page, "settings");

  const name = `E2E key ${unique()}`;
  await page.getByRole("button", { name: "Create API key" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Name")).toBeFocused();
  // Nothing chosen: the form says what is missing, next to the fields.
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByText("Give the key a name")).toBeVisible();
  await expect(dialog.getByText("Pick at least one scope")).toBeVisible();

  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("leads:read").check();
  await dialog.getByLabel("pins:read").check();
  await dialog.getByLabel("Daily limit").fill("25");
  await screenshotBoth(page, "create-key-dialog", { fullPage: false });
  await dialog.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByRole("dialog", { name: "Your new API key" });
  await expect(shown).toBeVisible();
  await expect(shown.getByText("Copy this key now")).toBeVisible();
  const key = (await shown.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^fcrm_live_\w+$/);
  await shown.getByRole("button", { name: "Copy key" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  await screenshotBoth(page, "new-key-shown-once", { fullPage: false });
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Active");
  await expect(row).toContainText("0 / 25");
  await expect(page.getByText(key)).toHaveCount(0);

  // The key works for an integration (x-api-key wins over the page's session cookie).
  const ok = await page.request.get("/api/auth/test", { headers: { ...API_HEADERS, "x-api-key": key } });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({
    auth_method: "api_key",
    user_id: null,
    scopes: ["leads:read", "pins:read"],
  });

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Revoke “${name}”?` });
  await expect(confirm).toContainText("stop working at once");
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);

  const refused = await page.request.get("/api/auth/test", { headers: { ...API_HEADERS, "x-api-key": key } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ status: "error", error_code: "INVALID_API_KEY" });
});

test("an admin adds a user who signs in; deactivating them ends their session", async ({ page, browser }) => {
  await signIn(page, "admin", { next: "/settings" });
  const id = unique();
  const user = { name: `Casey ${id}`, email: `casey.${id}@example.test`, password: "first-pass-123" };

  await page.getByRole("button", { name: "Add user" }).click();
  const dialog = page.getByRole("dialog", { name: "Add user" });
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await dialog.getByLabel("Name").fill(user.name);
  await dialog.getByLabel("Email").fill(user.email);
  await dialog.getByLabel("Role").selectOption("sales_rep");
  await dialog.getByLabel("Initial password").fill("short");
  await dialog.getByRole("button", { name: "Add user" }).click();
  await expect(dialog.getByText("At least 8 characters", { exact: true })).toBeVisible();
  await screenshotBoth(page, "add-user-dialog", { fullPage: false });
  await dialog.getByLabel("Initial password").fill(user.password);
  await dialog.getByRole("button", { name: "Add user" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole("row").filter({ hasText: user.email });
  await expect(row).toContainText("Sales rep");
  await expect(row).toContainText("Active");

  // The same email again: the server's answer shows next to the email field.
  await page.getByRole("button", { name: "Add user" }).click();
  await dialog.getByLabel("Name").fill("Someone else");
  await dialog.getByLabel("Email").fill(user.email.toUpperCase());
  await dialog.getByLabel("Initial password").fill("another-pass");
  await dialog.getByRole("button", { name: "Add user" }).click();
  await expect(dialog.getByText(/already exists/)).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // The new user signs in, in another browser.
  const theirPage = await newUserPage(browser);
  await signInWithForm(theirPage, { email: user.email, password: user.password });
  await expect(theirPage.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText([
    "Leads",
    "Customers",
    "Map",
  ]);

  // The admin cannot deactivate themself: their own row has no button.
  const ownRow = page.getByRole("row").filter({ has: page.getByText("You", { exact: true }) });
  await expect(ownRow.getByRole("button")).toHaveCount(0);

  await row.getByRole("button", { name: `Deactivate ${user.name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Deactivate ${user.name}?` });
  await confirm.getByRole("button", { name: "Deactivate" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("Deactivated");
  await screenshotBoth(page, "user-deactivated");

  // Their session has ended: the next page load goes to sign-in, and signing in is refused.
  await theirPage.reload();
  await expect(theirPage).toHaveURL(/\/sign-in\?next=/);
  await theirPage.getByLabel("Email").fill(user.email);
  await theirPage.getByLabel("Password").fill(user.password);
  await theirPage.getByRole("button", { name: "Sign in" }).click();
  await expect(signInError(theirPage)).toContainText("deactivated");

  // Reactivated, they can sign in again.
  await row.getByRole("button", { name: `Reactivate ${user.name}` }).click();
  await expect(row).toContainText("Active");
  await signInWithForm(theirPage, { email: user.email, password: user.password });
  await theirPage.context().close();
});

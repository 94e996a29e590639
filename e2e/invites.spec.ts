import { expect, test, type Browser, type Page } from "@playwright/test";
import { linkIn, startTestSmtpServer, type TestSmtpServer } from "@/lib/testing/smtp";
import {
  API_HEADERS,
  expectAccessible,
  newUserPage,
  screenshotBoth,
  signIn,
  signInWithForm,
  unique,
} from "./helpers";

/*
 * Invites and password reset against a real SMTP server: scripts/e2e.ts points the app's SMTP_URL
 * at E2E_SMTP_PORT, where this spec listens (smtp-server) and reads what the app sent.
 */

let smtp: TestSmtpServer;

test.beforeAll(async () => {
  const port = Number(process.env.E2E_SMTP_PORT);
  if (!port) throw new Error("E2E_SMTP_PORT is not set: run this spec through npm run test:e2e");
  smtp = await startTestSmtpServer(port);
});

test.afterAll(async () => {
  await smtp?.close();
});

/** Screenshots at 1440 and 390 px in the light and the dark theme, then back to light. */
async function shots(page: Page, name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page);
    await screenshotBoth(page, `${name}-${colorScheme}`, { fullPage: false });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** A new sales rep made by the demo admin through the API, with a known password. */
async function newUser(browser: Browser) {
  const admin = await newUserPage(browser);
  await signIn(admin, "admin", { next: false });
  const id = unique();
  const email = `reset-${id}@example.test`;
  const name = `Rita ${id}`;
  const password = "first password 1";
  const res = await admin.request.post("/api/settings/users", {
    headers: API_HEADERS,
    data: { name, email, role: "sales_rep", password },
  });
  expect(res.status()).toBe(201);
  return { admin, email, name, password };
}

test("an admin invites by email; the link sets name and password and signs the person in", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin", { next: false });
  await page.goto("/settings");
  const email = `invitee-${unique()}@example.test`;
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a user" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Role").selectOption("technician");
  await shots(page, "invite-dialog");
  const since = smtp.received.length;
  await dialog.getByRole("button", { name: "Send invite" }).click();
  await expect(page.getByRole("region", { name: "Notifications" }).getByText("Invite sent")).toBeVisible();
  const pending = page.getByRole("list", { name: "Pending invites" });
  await expect(pending.getByText(email)).toBeVisible();
  await expect(page.getByText(/Email is not configured/)).toHaveCount(0);
  await pending.scrollIntoViewIfNeeded();
  await shots(page, "settings-pending-invite");

  const message = await smtp.waitFor(email, { since });
  expect(message.subject).toMatch(/You're invited to Lone Star Pest Control/);
  expect(message.html).toContain("<a href=");
  const link = linkIn(message, "/invite/");

  const invited = await newUserPage(browser);
  await invited.goto(link);
  await expect(invited.getByRole("heading", { name: "Join your team on FieldCRM" })).toBeVisible();
  await invited.getByLabel("Your name").fill("Ivy Invitee");
  await invited.getByLabel(/^Password/).fill("ivy's password");
  await invited.getByLabel("Repeat the password").fill("ivy's password");
  await shots(invited, "invite-page");
  await invited.getByRole("button", { name: "Join and sign in" }).click();
  await expect(invited.getByRole("button", { name: /^Account menu for Ivy Invitee/ })).toBeVisible();

  // The link worked once; the admin's list no longer shows the invite.
  await invited.context().clearCookies();
  await invited.goto(link);
  await invited.getByLabel("Your name").fill("Someone Else");
  await invited.getByLabel(/^Password/).fill("another password");
  await invited.getByLabel("Repeat the password").fill("another password");
  await invited.getByRole("button", { name: "Join and sign in" }).click();
  await expect(invited.getByRole("alert").filter({ hasText: "already been used" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Pending invites" })).toHaveCount(0);
});

test("forgot password: the emailed link sets a new password and ends the old session", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { email, password } = await newUser(browser);
  // The user is signed in elsewhere (another device).
  const elsewhere = await newUserPage(browser);
  await signIn(elsewhere, { email, password }, { next: false });

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(email);
  await shots(page, "forgot-password");
  const since = smtp.received.length;
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await shots(page, "forgot-password-sent");

  const message = await smtp.waitFor(email, { since });
  expect(message.subject).toBe("Reset your FieldCRM password");
  await page.goto(linkIn(message, "/reset-password/"));
  await page.getByLabel("New password", { exact: true }).fill("second password 2");
  await page.getByLabel("Repeat the new password").fill("second password 2");
  await shots(page, "reset-password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("heading", { name: "Your password is set" })).toBeVisible();
  await shots(page, "reset-password-done");

  // The other device's session has ended: its next page goes to sign-in.
  await elsewhere.goto("/leads");
  await expect(elsewhere).toHaveURL(/\/sign-in/);
  await page.getByRole("link", { name: "Sign in" }).click();
  await signInWithForm(page, { email, password: "second password 2" });
});

test("an admin emails a user a reset link from settings", async ({ page, browser }) => {
  const { admin, email, name } = await newUser(browser);
  await admin.goto("/settings");
  const since = smtp.received.length;
  await admin.getByRole("button", { name: `Reset the password of ${name}` }).click();
  await admin.getByRole("dialog").getByRole("button", { name: "Create link" }).click();
  await expect(admin.getByText("Reset link sent")).toBeVisible();
  const message = await smtp.waitFor(email, { since });
  expect(message.text).toMatch(/An administrator of your company/);
  await page.goto(linkIn(message, "/reset-password/"));
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
});

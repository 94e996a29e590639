import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { TotpCodes } from "@/lib/testing/totp-codes";
import {
  API_HEADERS,
  demoUser,
  expectAccessible,
  newUserPage,
  screenshotBoth,
  signOut,
  unique,
} from "./helpers";

/*
 * Two-factor sign-in (issue #56): a user turns it on from the profile, signs in with a code and
 * with a recovery code; a company that requires it leads a user without it through setup.
 */

test.setTimeout(180_000);

const PASSWORD = "two-factor e2e password";

/** A new user of the demo company, made by its admin through the API (no demo user is changed). */
async function newUser(request: APIRequestContext, company: "pest" | "lawn") {
  const admin = demoUser("admin", company);
  const signedIn = await request.post("/api/auth/sign-in", {
    headers: API_HEADERS,
    data: { email: admin.email, password: admin.password },
  });
  expect(signedIn.status()).toBe(200);
  const email = `totp-${unique()}@example.test`;
  const created = await request.post("/api/settings/users", {
    headers: API_HEADERS,
    data: { name: "Tess Totp", email, role: "sales_rep", password: PASSWORD },
  });
  expect(created.status()).toBe(201);
  return { email, password: PASSWORD };
}

async function typeCredentials(page: Page, who: { email: string; password: string }) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The setup key as shown (groups of four), read back without spaces. */
async function setupKey(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Can't scan it? Show the key" }).click();
  return (await page.getByLabel("Setup key").innerText()).replace(/\s+/g, "");
}

/** Light and dark screenshots at both widths. */
async function shots(page: Page, name: string) {
  await screenshotBoth(page, name);
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshotBoth(page, `${name}-dark`);
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "light" });
  await expectAccessible(page);
}

const dashboard = (page: Page) =>
  expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();

test("turn on two-factor, then sign in with a code and with a recovery code", async ({ browser }) => {
  const adminPage = await newUserPage(browser);
  const user = await newUser(adminPage.request, "pest");
  await adminPage.context().close();

  const page = await newUserPage(browser);
  await typeCredentials(page, user);
  await dashboard(page);
  await page.goto("/settings/profile");
  const section = page.getByRole("region", { name: "Two-factor sign-in" });
  await expect(section.getByText("Off", { exact: true })).toBeVisible();
  await section.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(
    section.getByRole("img", { name: "QR code to scan with your authenticator app" }),
  ).toBeVisible();
  const codes = new TotpCodes(await setupKey(page));
  await shots(page, "profile-setup");

  await section.getByLabel("6-digit code").fill("000000");
  await section.getByRole("button", { name: "Turn on", exact: true }).click();
  await expect(section.getByText(/That code is not right/)).toBeVisible();
  await section.getByLabel("6-digit code").fill(await codes.next());
  await section.getByRole("button", { name: "Turn on", exact: true }).click();
  const list = section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(list).toHaveCount(10);
  const recovery = await list.allInnerTexts();
  await shots(page, "profile-recovery-codes");
  await section.getByRole("button", { name: "I have saved them" }).click();
  await expect(section.getByText("On", { exact: true })).toBeVisible();
  await expect(section.getByText(/10 of 10 recovery codes left/)).toBeVisible();
  await shots(page, "profile-on");
  await signOut(page);

  // The password alone no longer signs in.
  await typeCredentials(page, user);
  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeFocused();
  expect((await page.context().cookies()).find((c) => c.name === "fcrm_session")).toBeUndefined();
  await shots(page, "sign-in-code");
  await page.getByLabel("6-digit code").fill(await codes.next());
  await page.getByRole("button", { name: "Sign in" }).click();
  await dashboard(page);
  await signOut(page);

  await typeCredentials(page, user);
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recovery[0]!);
  await shots(page, "sign-in-recovery-code");
  await page.getByRole("button", { name: "Sign in" }).click();
  await dashboard(page);
  await page.goto("/settings/profile");
  await expect(page.getByText(/9 of 10 recovery codes left/)).toBeVisible();
  await signOut(page);

  // A used recovery code is refused.
  await typeCredentials(page, user);
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recovery[0]!);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/That code is not right/)).toBeVisible();
  await page.context().close();
});

test("a company that requires two-factor leads a user without it through setup at sign-in", async ({
  browser,
}) => {
  // The lawn company's admin (signed in by newUser, API and pages share the cookie) sets the rule.
  const admin = await newUserPage(browser);
  const user = await newUser(admin.request, "lawn");
  const setRule = (require_two_factor: boolean) =>
    admin.request.put("/api/settings/two-factor", { headers: API_HEADERS, data: { require_two_factor } });
  expect((await setRule(true)).status()).toBe(200);
  try {
    await admin.goto("/settings");
    const rule = admin.getByRole("checkbox", { name: "Require two-factor sign-in for everyone" });
    await expect(rule).toBeChecked();
    await rule.scrollIntoViewIfNeeded();
    await screenshotBoth(admin, "settings-rule", { fullPage: false });

    const page = await newUserPage(browser);
    await typeCredentials(page, user);
    await expect(page.getByRole("heading", { name: "Set up two-factor sign-in" })).toBeFocused();
    expect((await page.context().cookies()).find((c) => c.name === "fcrm_session")).toBeUndefined();
    const codes = new TotpCodes(await setupKey(page));
    await shots(page, "sign-in-setup");
    await page.getByLabel("6-digit code").fill(await codes.next());
    await page.getByRole("button", { name: "Turn on and sign in" }).click();
    await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toBeFocused();
    await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await shots(page, "sign-in-setup-codes");
    await page.getByRole("button", { name: "Continue" }).click();
    await dashboard(page);
    await page.context().close();
  } finally {
    // Other specs sign in to this company: leave it as it was.
    expect((await setRule(false)).status()).toBe(200);
    await admin.context().close();
  }
});

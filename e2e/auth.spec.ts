import { expect, test } from "@playwright/test";
import {
  API_HEADERS,
  demoUser,
  screenshotBoth,
  signIn,
  signInWithForm,
  signInError,
  signOut,
} from "./helpers";

const nav = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Main" });

test("a signed-out visitor is sent to sign-in, and back to the page after signing in @smoke", async ({
  page,
}) => {
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fsettings$/);
  await expect(page.getByRole("heading", { name: "Sign in to FieldCRM" })).toBeVisible();
  await screenshotBoth(page, "sign-in");

  // The API says the same to a page without a session.
  const api = await page.request.get("/api/auth/session", { headers: API_HEADERS });
  expect(api.status()).toBe(401);

  await page.getByLabel("Email").fill(demoUser("admin").email);
  await page.getByLabel("Password").fill(demoUser("admin").password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  // Signed in, /sign-in goes straight on.
  await page.goto("/sign-in");
  await expect(page).not.toHaveURL(/\/sign-in/);
});

test("a wrong password shows an error and does not sign in", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(demoUser("manager").email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(signInError(page)).toHaveText("Email or password is incorrect");
  await expect(page).toHaveURL(/\/sign-in$/);
  await screenshotBoth(page, "sign-in-error");
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === "fcrm_session")).toBeUndefined();
});

test("a sales rep sees leads, customers and the map, but no reports or settings", async ({ page }) => {
  await signInWithForm(page, "sales_rep");
  await expect(page).toHaveURL(/\/leads/);
  await expect(page.getByTestId("company-name")).not.toBeEmpty();
  const links = nav(page).getByRole("link");
  await expect(links).toHaveText(["Leads", "Customers", "Map"]);
  await expect(nav(page).getByRole("link", { name: "Leads" })).toHaveAttribute("aria-current", "page");

  const cookie = (await page.context().cookies()).find((c) => c.name === "fcrm_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

  await page.getByRole("button", { name: /^Account menu for / }).click();
  await expect(page.getByText(demoUser("sales_rep").email)).toBeVisible();
  await expect(page.getByText("Sales rep", { exact: true })).toBeVisible();
  await screenshotBoth(page, "user-menu");

  const test = await page.request.get("/api/auth/test", { headers: API_HEADERS });
  expect(await test.json()).toMatchObject({ auth_method: "session", user_id: expect.any(String) });
});

test("a technician does not see Settings and is not allowed in", async ({ page }) => {
  await signInWithForm(page, "technician");
  // Technicians knock doors: "/" leads to the map.
  await expect(page).toHaveURL(/\/map/);
  await expect(nav(page).getByRole("link")).toHaveText(["Customers", "Jobs", "Map"]);
  await expect(page.getByRole("link", { name: "Settings" })).toHaveCount(0);

  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(page.getByText("Your role cannot use Settings")).toBeVisible();
  await screenshotBoth(page, "not-allowed");

  const res = await page.request.get("/api/settings/users", { headers: API_HEADERS });
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ error_code: "FORBIDDEN" });
});

test("signing out ends the session", async ({ page }) => {
  await signIn(page, "manager");
  await expect(nav(page).getByRole("link")).toHaveText([
    "Leads",
    "Customers",
    "Service plans",
    "Jobs",
    "Knock to cash",
    "Map",
    "Import",
  ]);
  const before = (await page.context().cookies()).find((c) => c.name === "fcrm_session");
  expect(before).toBeDefined();

  await signOut(page);
  expect((await page.context().cookies()).find((c) => c.name === "fcrm_session")).toBeUndefined();

  // The old cookie no longer works anywhere.
  const replay = await page.request.get("/api/auth/session", {
    headers: { ...API_HEADERS, cookie: `fcrm_session=${before!.value}` },
  });
  expect(replay.status()).toBe(401);
  await page.goto("/leads");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fleads$/);
});

test("the shell works on a phone and by keyboard", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "admin", { next: "/settings" });
  await expect(page).toHaveURL(/\/settings$/);

  // The skip link is the first thing a keyboard reaches, and it moves focus to the page.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);

  // The phone menu opens and closes with the keyboard.
  const menuButton = page.getByRole("button", { name: "Open menu" });
  await expect(nav(page)).toHaveCount(0);
  await menuButton.focus();
  await page.keyboard.press("Enter");
  await expect(nav(page).getByRole("link")).toHaveText([
    "Leads",
    "Customers",
    "Service plans",
    "Jobs",
    "Knock to cash",
    "Map",
    "Import",
    "Settings",
  ]);
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: "test-results/screenshots/auth-phone-menu-390.png" });
  await page.keyboard.press("Escape");
  await expect(nav(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
});

test("one email in two companies: sign-in asks which company, and the profile shows the other", async ({
  page,
}) => {
  const shared = { email: `two-companies-${Date.now()}@example.test`, password: "same-password-in-both" };
  // Each company's admin adds a user with the same email and password: first Lone Star, then Hill Country.
  for (const [company, role] of [
    ["pest", "sales_rep"],
    ["lawn", "technician"],
  ] as const) {
    const admin = demoUser("admin", company);
    const signedIn = await page.request.post("/api/auth/sign-in", {
      headers: API_HEADERS,
      data: { email: admin.email, password: admin.password },
    });
    expect(signedIn.status()).toBe(200);
    const created = await page.request.post("/api/settings/users", {
      headers: API_HEADERS,
      data: { name: "Sam Shared", role, ...shared },
    });
    expect(created.status()).toBe(201);
    await page.context().clearCookies();
  }

  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(shared.email);
  await page.getByLabel("Password").fill(shared.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Choose a company" })).toBeFocused();
  const choices = page.getByRole("list", { name: "Companies" }).getByRole("button");
  await expect(choices).toHaveText([
    /^Hill Country Lawn & Garden\s*Technician/,
    /^Lone Star Pest Control\s*Sales rep/,
  ]);
  // No session until a company is chosen.
  expect((await page.context().cookies()).find((c) => c.name === "fcrm_session")).toBeUndefined();
  await screenshotBoth(page, "company-chooser");

  await choices.filter({ hasText: "Lone Star Pest Control" }).click();
  await expect(page).toHaveURL(/\/leads/);
  await expect(page.getByTestId("company-name")).toHaveText("Lone Star Pest Control");

  // The user menu leads to the profile, which names the company that added this email later.
  await page.getByRole("button", { name: /^Account menu for / }).click();
  await page.getByRole("link", { name: "Your account" }).click();
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
  const others = page.getByRole("list", { name: "Other companies with your email" }).getByRole("listitem");
  await expect(others).toHaveCount(1);
  await expect(others.first()).toContainText("Hill Country Lawn & Garden");
  await expect(others.first()).toContainText("Added");
  await screenshotBoth(page, "profile-other-companies");
});

import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD, demoUser as seededDemoUser, type DemoCompanyKey } from "@/lib/seed/demo";

export type DemoRole = "admin" | "manager" | "sales_rep" | "technician";

export interface Credentials {
  email: string;
  password: string;
}

/** The demo user of a role in the main demo company (name, email, password), as `npm run db:seed` makes it. */
export function demoUser(
  role: DemoRole,
  company: DemoCompanyKey = "pest",
): Credentials & { name: string; id: string } {
  const user = seededDemoUser(company, role);
  return { id: user.id, name: user.name, email: user.email, password: DEMO_PASSWORD };
}

/** The version header every API call needs. */
export const API_HEADERS = { "service-api-version": "1.1.0" } as const;

/**
 * Signs in through the sign-in API, so each test starts with a session of its own without loading
 * the sign-in page (the form has its own tests: auth.spec.ts, and signInWithForm below). Then opens
 * `next` (default "/", the role's home) and waits until the dashboard shows; `next: false` opens no
 * page, for a test whose first page shows records it makes through page.request first.
 */
export async function signIn(
  page: Page,
  who: DemoRole | Credentials,
  options: { next?: string | false } = {},
) {
  const credentials = typeof who === "string" ? demoUser(who) : who;
  // page.request shares the context's cookie jar: the session cookie it gets is the page's too.
  const response = await page.request.post("/api/auth/sign-in", {
    headers: API_HEADERS,
    data: { email: credentials.email, password: credentials.password },
  });
  const answer = await response.text();
  expect(response.status(), `sign-in of ${credentials.email}: ${answer}`).toBe(200);
  expect((JSON.parse(answer) as { status?: string }).status, answer).toBe("success");
  if (options.next === false) return;
  await page.goto(options.next ?? "/");
  await expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();
}

/**
 * Signs in through the /sign-in form, as a demo role or with given credentials, and waits until
 * the dashboard shows. Optionally starts from a page (`next`).
 */
export async function signInWithForm(
  page: Page,
  who: DemoRole | Credentials,
  options: { next?: string } = {},
) {
  const credentials = typeof who === "string" ? demoUser(who) : who;
  await page.goto(options.next ? `/sign-in?next=${encodeURIComponent(options.next)}` : "/sign-in");
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();
}

/** The error message of the sign-in form (Next's route announcer is an alert too, hence the scope). */
export function signInError(page: Page) {
  return page.getByRole("form", { name: "Sign in" }).getByRole("alert");
}

/** Signs out through the user menu and waits for the sign-in page. */
export async function signOut(page: Page) {
  await page.getByRole("button", { name: /^Account menu for / }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

/** A fresh browser context (its own cookies) with a page, for a second user at the same time. */
export async function newUserPage(browser: Browser): Promise<Page> {
  const baseURL = test.info().project.use.baseURL;
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

const SCREENSHOT_DIR = path.join(process.cwd(), "test-results", "screenshots");
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/**
 * Screenshots at desktop (1440 px) and phone (390 px) width to test-results/screenshots/, restoring
 * the viewport. `fullPage: false` for an open dialog, which covers the viewport only.
 */
export async function screenshotBoth(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  const spec = path.basename(test.info().file).replace(/\.spec\.ts$/, "");
  const original = page.viewportSize();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await atRest(page);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${spec}-${name}-${size.width}.png`),
      fullPage: options.fullPage ?? true,
    });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * The page at rest, for a screenshot or a color check: two frames drawn since the last change (a
 * resize, a theme), web fonts loaded, and no transition or finite animation still running (endless
 * ones, a loading pulse, never end and are not waited for).
 */
export async function atRest(page: Page) {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.waitForFunction(async () => {
    await document.fonts.ready;
    return document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity);
  });
}

/** A unique suffix for names and emails made by a test. */
export function unique(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * The page does not scroll sideways (a table or board may scroll inside its own container). On
 * failure, the message names the elements that reach past the right edge, widest first.
 */
export async function expectNoPageScrollX(page: Page) {
  const { overflow, culprits } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // Inside a container that scrolls or clips sideways and fits, an element does not widen the page.
    const clipped = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const fits = up.getBoundingClientRect().right <= width + 0.5;
        if (fits && getComputedStyle(up).overflowX !== "visible") return true;
      }
      return false;
    };
    const culprits = [...document.querySelectorAll("body *")]
      .map((el) => ({ el, right: el.getBoundingClientRect().right }))
      .filter(({ el, right }) => right > width + 0.5 && !clipped(el))
      .sort((a, b) => b.right - a.right)
      .slice(0, 5)
      .map(
        ({ el, right }) =>
          `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} (${Math.round(right)} px)`,
      );
    return { overflow: document.documentElement.scrollWidth - width, culprits };
  });
  expect(
    overflow,
    `sideways scroll of ${overflow} px; past the edge: ${culprits.join("; ")}`,
  ).toBeLessThanOrEqual(0);
}

/**
 * An axe check of the page for WCAG 2.1 A and AA. Legacy mode runs axe.run in the page itself: the
 * app has no frames, and the default mode opens and loads a blank page for every check only to
 * merge the results of frames.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).setLegacyMode();
}

/** No serious or critical axe violation (WCAG 2.1 A and AA) on the page as it is now. */
export async function expectAccessible(page: Page) {
  // Colors are checked at rest: a theme switch starts color transitions that axe would catch midway.
  await atRest(page);
  const results = await axe(page).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious).toEqual([]);
}

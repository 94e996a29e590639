import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { atRest, expectAccessible, signIn, unique } from "./helpers";

/*
 * Webhooks in settings (issue #55): an admin adds an endpoint pointing at a receiver this spec runs,
 * sees the secret once, sends a test event that the receiver gets signed, sees it in the log, edits,
 * rotates and deletes the endpoint. The e2e server runs with WEBHOOKS_ALLOW_PRIVATE=true.
 */

test.describe.configure({ mode: "serial", timeout: 180_000 });

const SHOTS = process.env.SHOTS_DIR ?? path.join(process.cwd(), "test-results", "screenshots");

/** Screenshots at 1440 and 390 px, light and dark (the dashboard follows the system scheme). */
async function shots(page: Page, name: string, fullPage = true) {
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
        path: path.join(SHOTS, `webhooks-${name}-${size.width}-${colorScheme}.png`),
        fullPage,
      });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  if (original) await page.setViewportSize(original);
}

interface Received {
  headers: Record<string, string>;
  body: string;
}

const received: Received[] = [];
let server: http.Server;
let receiverUrl = "";

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      received.push({ headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${unique()}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test("an admin adds, tests, edits, rotates and deletes a webhook endpoint", async ({ page }) => {
  await signIn(page, "admin", { next: "/settings" });
  const section = page.getByRole("region", { name: "Webhooks" });
  await expect(section.getByRole("heading", { name: "Webhooks" })).toBeVisible();

  // Add: nothing chosen says what is missing; then a URL and two events.
  await section.getByRole("button", { name: "Add endpoint" }).first().click();
  const form = page.getByRole("dialog", { name: "Add endpoint" });
  await expect(form.getByLabel("URL")).toBeFocused();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText("Enter the URL")).toBeVisible();
  await expect(form.getByText("Pick at least one event type")).toBeVisible();
  await form.getByLabel("URL").fill(receiverUrl);
  await form.getByLabel("lead.created").check();
  await form.getByLabel("customer.updated").check();
  await form.getByLabel("Description").fill("E2E receiver");
  await shots(page, "add-dialog", false);
  await expectAccessible(page);
  await form.getByRole("button", { name: "Add endpoint" }).click();

  // The secret, once.
  const shown = page.getByRole("dialog", { name: "Your endpoint's signing secret" });
  await expect(shown).toBeVisible();
  await expect(shown).toContainText("You will not see it again");
  const secret = (await shown.getByTestId("webhook-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  await shown.getByRole("button", { name: "Copy secret" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  await shots(page, "secret-once", false);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();
  await expect(page.getByText(secret)).toHaveCount(0);

  const row = section.getByRole("row").filter({ hasText: receiverUrl });
  await expect(row).toContainText("Enabled");
  await expect(row).toContainText("lead.created");
  await expect(row).toContainText("customer.updated");

  // A test event reaches the receiver, signed with the secret.
  await row.getByRole("button", { name: `Send test event to ${receiverUrl}` }).click();
  await expect(page.getByText("Test event queued")).toBeVisible();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
  const first = received[0]!;
  const payload = new Webhook(secret).verify(first.body, first.headers) as { type: string };
  expect(payload.type).toBe("webhook.test");

  // The log shows it succeeded with 200.
  await row.getByRole("button", { name: `Deliveries of ${receiverUrl}` }).click();
  const log = page.getByRole("dialog", { name: "Deliveries" });
  const delivery = log
    .getByRole("table", { name: "Deliveries" })
    .getByRole("row")
    .filter({ hasText: "webhook.test" });
  await expect(async () => {
    await log.getByRole("button", { name: "Refresh" }).click();
    await expect(delivery).toContainText("Succeeded", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(delivery).toContainText("200");
  await shots(page, "deliveries", false);
  await expectAccessible(page);

  // Resend: the same event again, with the same webhook-id.
  await delivery.getByRole("button", { name: /^Resend webhook\.test/ }).click();
  await expect(page.getByText("Delivery queued again")).toBeVisible();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(1);
  expect(received[1]!.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
  await log.getByRole("button", { name: "Close", exact: true }).click();
  await expect(log).toBeHidden();

  // Edit: another event and a new description; disabling shows in the status.
  await row.getByRole("button", { name: `Edit ${receiverUrl}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit endpoint" });
  await expect(edit.getByLabel("URL")).toHaveValue(receiverUrl);
  await expect(edit.getByLabel("lead.created")).toBeChecked();
  await edit.getByLabel("pin.created").check();
  await edit.getByLabel("Description").fill("E2E receiver, edited");
  await edit.getByLabel("Enabled").uncheck();
  await edit.getByRole("button", { name: "Save endpoint" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("pin.created");
  await expect(row).toContainText("E2E receiver, edited");
  await expect(row).toContainText("Disabled");
  await expect(row.getByRole("button", { name: `Send test event to ${receiverUrl}` })).toBeDisabled();
  await row.getByRole("button", { name: `Edit ${receiverUrl}` }).click();
  await edit.getByLabel("Enabled").check();
  await edit.getByRole("button", { name: "Save endpoint" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("Enabled");
  await shots(page, "list");
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page);
  }
  await page.emulateMedia({ colorScheme: "light" });

  // Rotate: a new secret, once; both sign for a day.
  await row.getByRole("button", { name: `Rotate the secret of ${receiverUrl}` }).click();
  const confirmRotate = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await confirmRotate.getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByRole("dialog", { name: "Your new signing secret" });
  await expect(rotated).toContainText("You will not see it again");
  const newSecret = (await rotated.getByTestId("webhook-secret").textContent())?.trim() ?? "";
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);
  await rotated.getByRole("button", { name: "Done" }).click();
  await expect(row).toContainText("Previous secret valid until");

  // The next test event verifies with the new secret (and still with the old one).
  const before = received.length;
  await row.getByRole("button", { name: `Send test event to ${receiverUrl}` }).click();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(before);
  const after = received[before]!;
  expect(new Webhook(newSecret).verify(after.body, after.headers)).toMatchObject({ type: "webhook.test" });
  expect(new Webhook(secret).verify(after.body, after.headers)).toMatchObject({ type: "webhook.test" });

  // Delete, after a confirmation.
  await row.getByRole("button", { name: `Delete ${receiverUrl}` }).click();
  const confirmDelete = page.getByRole("dialog", { name: "Delete this endpoint?" });
  await expect(confirmDelete).toContainText("cannot be undone");
  await confirmDelete.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(confirmDelete).toBeHidden();
  await expect(section.getByRole("row").filter({ hasText: receiverUrl })).toHaveCount(0);
});

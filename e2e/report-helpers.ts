import fs from "node:fs";
import { expect, type Page } from "@playwright/test";
import { API_HEADERS } from "./helpers";

/*
 * What the report specs share: the API asked with the page's session, a summary card compared
 * with the API's number, and the CSV export read back.
 */

export async function apiGet<T>(page: Page, path: string, params: Record<string, string> = {}): Promise<T> {
  const response = await page.request.get(path, { headers: API_HEADERS, params });
  expect(response.status(), `GET ${path} answers 200`).toBe(200);
  return (await response.json()) as T;
}

/** Money as the page formats it: the browser's locale, US dollars (lib/format.ts). */
export async function money(page: Page, value: number): Promise<string> {
  return page.evaluate(
    (v) => new Intl.NumberFormat(undefined, { style: "currency", currency: "USD" }).format(v),
    value,
  );
}

/** A summary card shows the API's number (kept in data-value) and, for money, its formatted text. */
export async function expectCard(page: Page, key: string, value: number, options: { money?: boolean } = {}) {
  const card = page.getByTestId(`summary-${key}`);
  await expect(card).toHaveAttribute("data-value", String(value));
  if (options.money) await expect(card.locator("dd").first()).toHaveText(await money(page, value));
}

/** Counts CSV records (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
export function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

export async function exportCsv(page: Page): Promise<string[][]> {
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await (await download).path();
  return csvRecords(fs.readFileSync(file, "utf8"));
}

import "server-only";
import { randomBytes } from "node:crypto";

/** A JSON answer with a status other than 200, or extra headers. */
export class JsonResult {
  constructor(
    readonly body: unknown,
    readonly status = 200,
    readonly headers: Record<string, string> = {},
  ) {}
}
export const respond = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new JsonResult(body, status, headers);

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(toJson(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * JSON text whose bigints (a page number past 2^53) are exact integers. JSON.stringify refuses a
 * bigint and Node 20 lacks JSON.rawJSON, so each is written as a nonce-tagged string, then unquoted.
 * A replacer is called for every key, so an envelope's members are written one by one and only a
 * member holding a bigint (the pagination, not a page of records) is written with it.
 */
export function toJson(body: unknown): string {
  if (body === null || typeof body !== "object" || Object.getPrototypeOf(body) !== Object.prototype) {
    return memberJson(body) as string;
  }
  const members: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const text = memberJson(value);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(",")}}`;
}

/** One value's JSON (undefined for what JSON leaves out: undefined, functions, symbols). */
function memberJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch (error) {
    // A bigint (or a cycle, which the replacer's pass refuses again).
    if (!(error instanceof TypeError)) throw error;
  }
  let nonce: string | undefined;
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== "bigint") return item;
    nonce ??= randomBytes(12).toString("hex");
    return `${nonce}:${item}`;
  });
  return nonce ? text.replace(new RegExp(`"${nonce}:(-?\\d+)"`, "g"), "$1") : text;
}

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
 */
function toJson(body: unknown): string {
  let nonce: string | undefined;
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (typeof value !== "bigint") return value;
    nonce ??= randomBytes(12).toString("hex");
    return `${nonce}:${value}`;
  });
  return nonce ? text.replace(new RegExp(`"${nonce}:(-?\\d+)"`, "g"), "$1") : text;
}

import "server-only";
import type { z } from "zod";
import type { FieldProblem } from "@/lib/domain/errors";
import { ApiError } from "./errors";

/** zod issues as `details`: one entry per bad field, named by its path (`tags.2`, `limit`). */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[]): FieldProblem[] {
  const details: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const field = issue.path.map(String).join(".") || "body";
    const key = `${field}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ field, message: issue.message });
  }
  return details;
}

export function validationError(details: FieldProblem[]): ApiError {
  const fields = [...new Set(details.map((d) => d.field))];
  return ApiError.coded("VALIDATION_ERROR", `Invalid value for ${fields.join(", ")}`, { details });
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(issuesToDetails(result.error.issues));
  return result.data;
}

/** Query string as an object; a repeated parameter takes its first value. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) if (!(key in out)) out[key] = value;
  return out;
}

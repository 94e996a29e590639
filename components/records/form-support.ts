import type { z } from "zod";
import { parseTagList } from "@/lib/values/normalize";
import { ApiClientError } from "@/lib/query/api-client";

// Helpers shared by the lead and customer forms: building bodies, mapping zod issues and API
// `details` to one message per field, and date input conversions.

export type FieldErrors = Record<string, string>;

/** `tags.3` → `tags`: a detail about one element belongs to its list's field. */
function topField(path: string): string {
  return path.split(/[.[]/)[0] ?? path;
}

/** One message per field from a failed safeParse (the same schema the API uses). */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? topField(issue.path.map(String).join(".")) : "";
    out[field] ??= issue.message;
  }
  return out;
}

/** One message per field from the API's 400 `details`; "" holds the overall message. */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiClientError)) return { "": "Something went wrong. Please try again." };
  const out: FieldErrors = {};
  for (const detail of error.details) out[topField(detail.field)] ??= detail.message;
  out[""] = error.message;
  return out;
}

/**
 * The fields a create-or-update sends: for a new record the filled ones; for an edit the changed
 * ones (the API keeps absent fields; an emptied field goes as "" and the API stores null).
 */
export function fieldsToSend<F extends string>(
  fields: readonly F[],
  values: Record<F, string>,
  initial: Record<F, string>,
  isEdit: boolean,
): F[] {
  return fields.filter((field) => (isEdit ? values[field] !== initial[field] : values[field].trim() !== ""));
}

/**
 * Whether a form differs from what it was opened with (or last saved): a field's value, or tags
 * typed to add. Typing and then restoring a value is not a change; blank tag input is none.
 */
export function isFormDirty<F extends string>(
  fields: readonly F[],
  values: Record<F, string>,
  initial: Record<F, string>,
  tagsText: string,
): boolean {
  return fields.some((field) => values[field] !== initial[field]) || parseTagList(tagsText).length > 0;
}

/**
 * Adds the typed tags and checks the body with the API's schema; the form's own errors come first
 * (the first is focused) unless the schema objects to the same field. The API applies transforms.
 */
export function checkedBody<Body>(
  schema: z.ZodType,
  body: Record<string, unknown>,
  tagsText: string,
  errors: FieldErrors,
): { body: Body } | { errors: FieldErrors } {
  const tags = parseTagList(tagsText);
  if (tags.length > 0) body.tags = tags;
  const parsed = schema.safeParse(body);
  const all = parsed.success ? { ...errors } : { ...errors, ...zodFieldErrors(parsed.error) };
  // The API takes a phone in any format; one without a digit is surely a typo (it matches nothing).
  if (typeof body.phone === "string" && body.phone.trim() && !/\d/.test(body.phone)) {
    all.phone ??= "A phone number needs digits";
  }
  if (Object.keys(all).length > 0) return { errors: all };
  return { body: body as Body };
}

/** The errors whose field the form does not show, so they are not lost. */
export function unplacedErrors(errors: FieldErrors, fields: readonly string[]): string[] {
  return Object.entries(errors)
    .filter(([field]) => field !== "" && !fields.includes(field))
    .map(([field, message]) => `${field}: ${message}`);
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A date input's "YYYY-MM-DD" as the start of that day in the user's time zone (ISO 8601), so
 * the day shown back (in the same zone) is the day picked. Empty → "".
 */
export function dateInputToIso(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).toISOString();
}

/** An ISO timestamp as a date input's "YYYY-MM-DD" in the user's time zone. */
export function isoToDateInput(value: string | null | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Moves focus to the first field with an error, so keyboard and screen-reader users land on it. */
export function focusFirstError(form: HTMLFormElement, errors: FieldErrors) {
  const first = Object.keys(errors).find((f) => f !== "");
  const element = first ? form.querySelector<HTMLElement>(`[name="${first}"]`) : null;
  element?.focus();
}

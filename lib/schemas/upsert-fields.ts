import { z } from "zod";
import { booleanQuery, DOCUMENTED_DATE, toIsoDate } from "./common";
import { maxChars, nonBlank } from "./text";

/**
 * Body fields shared by lead and customer upserts (contract section 6). Absent keeps the stored
 * value, `null` clears it, and a blank string counts as `null` so a form can clear a field.
 */
export const SHORT_TEXT_MAX = 255;
export const NOTES_MAX = 10_000;
export const TAGS_MAX = 100;
export const TAG_MAX = 100;

const emptyToNull = (value: string): string | null => (value === "" ? null : value);

/** A short, nullable text field (trimmed). */
export const nullableText = (description: string, max = SHORT_TEXT_MAX) =>
  maxChars(z.string().trim(), max).transform(emptyToNull).nullable().optional().describe(description);

/** Free text kept as written (only a blank value counts as empty). */
export const nullableNotes = (description: string) =>
  maxChars(z.string(), NOTES_MAX)
    .transform((value) => (value.trim() === "" ? null : value))
    .nullable()
    .optional()
    .describe(description);

// Pragmatic check: one @, no spaces, a dot in the domain. Deliverability is not ours to judge.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The document states format email and the server's pattern; a blank value, which clears the
 * field, is accepted too but left out of the documented string.
 */
export const nullableEmail = (description: string) =>
  maxChars(z.string().trim(), SHORT_TEXT_MAX)
    .refine((value) => value === "" || EMAIL_PATTERN.test(value), "must be a valid email address")
    .meta({ format: "email", pattern: EMAIL_PATTERN.source })
    .transform(emptyToNull)
    .nullable()
    .optional()
    .describe(description);

/** ISO 8601 date (`2026-03-31`, midnight UTC) or date-time; empty clears it. */
export const nullableIsoDate = (description: string) =>
  z
    .string()
    .meta(DOCUMENTED_DATE)
    .trim()
    .transform((value, ctx) => (value === "" ? null : toIsoDate(value, ctx)))
    .nullable()
    .optional()
    .describe(description);

/** Tags to add: merged into the stored ones on update, never replacing them. */
export const tagsInput = (description: string) =>
  z
    .array(maxChars(nonBlank(z.string().trim()), TAG_MAX))
    .max(TAGS_MAX, `must have at most ${TAGS_MAX} tags`)
    .optional()
    .describe(description);

/** The id of the record to update; an unknown id is a 404. */
export const recordIdInput = (description: string) =>
  maxChars(nonBlank(z.string().trim()), SHORT_TEXT_MAX).optional().describe(description);

/** `search` of the lists: trimmed; empty means no search. */
export const searchQuery = (description: string) =>
  maxChars(z.string().trim(), SHORT_TEXT_MAX).optional().describe(description);

/** `[latitude, longitude]`. */
export const locationSchema = z
  .tuple([z.number(), z.number()])
  .describe("Coordinates as [latitude, longitude].");

/** Path parameter of the get-by-id endpoints. */
export const idParamsSchema = (description: string) =>
  z.object({ id: z.string().min(1).describe(description) });

/** `match` of create-or-update (extensions E1): "none" always creates, even when phone or email match. */
export const matchInput = (record: string) =>
  z
    .enum(["auto", "none"], { error: "must be auto or none" })
    .optional()
    .describe(
      `"auto" (default): update the ${record} named by id, else the one with the same phone, else email. ` +
        `"none": always create a new ${record}, even when the phone or email matches (not allowed with id).`,
    );

/** What a create-or-update matched (extensions E1). */
export const matchedOnSchema = z
  .enum(["id", "phone", "email"])
  .nullable()
  .describe("What the call matched the existing record on: id, phone or email; null when it created one.");

/** Query of POST /leads and POST /customers. */
export const upsertQuerySchema = z.object({
  dry_run: booleanQuery(
    "true: validate and match exactly as the real call would, write nothing, and answer 200 with " +
      "matched_on, existing (the matched record, or null) and result (the record as it would be).",
  ).default(false),
});

/** The `message` of a dry run's answer. */
export const DRY_RUN_MESSAGE = "Dry run";

/** A dry run's answer says so, so a client tells it from the real call's answer by `dry_run`. */
export const dryRunTrue = z
  .literal(true)
  .describe("Always true: this is a dry run's answer and nothing was written.");

/** The real call's answer never has `dry_run: true` (the discriminator of the 200 answers). */
export const notDryRun = z
  .literal(false)
  .optional()
  .describe("Absent (or false): the call was carried out. A dry run's answer has dry_run: true.");

/** A dry run's `result` has the record's id only when the record exists: none is made up. */
export const dryRunResultId = (record: string) =>
  z
    .string()
    .optional()
    .describe(
      `The ${record}'s id; absent when the call would create the ${record} (it has no id until stored).`,
    );

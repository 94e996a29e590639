import { z } from "zod";

/** Page and limit of every paginated list (contract section 5). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
/** The last page the API takes: the database's largest bigint. */
export const MAX_PAGE = 2n ** 63n - 1n;

/**
 * A whole number from a query string, compared exactly (as a bigint) with its bounds; the pipe
 * states them for the API reference.
 */
const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      const problem = wholeNumberProblem(name, value, BigInt(min), BigInt(max));
      if (problem) {
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return Number(value);
    })
    .pipe(z.number().int().min(min).max(max));

function wholeNumberProblem(name: string, value: string, min: bigint, max: bigint): string | undefined {
  if (!/^\d+$/.test(value)) return `${name} must be a whole number`;
  if (BigInt(value) < min) return `${name} must be at least ${min}`;
  if (BigInt(value) > max) return `${name} must be at most ${max}`;
  return undefined;
}

/**
 * The page, held as a bigint so `pagination.page` echoes it exactly past 2^53; a page past the data
 * answers empty with the true total (contract section 5).
 */
const pageNumberWith = (documented: { default?: number }) =>
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      const problem = wholeNumberProblem("page", value, 1n, MAX_PAGE);
      if (problem) {
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return BigInt(value);
    })
    // The lower bound for the API reference; the upper one is in the description (past 2^53, a
    // JSON number in JavaScript would not hold it exactly).
    .pipe(
      z
        .bigint()
        .min(1n)
        .max(MAX_PAGE)
        .meta({ minimum: 1, ...documented }),
    );
const pageNumber = pageNumberWith({});

export const paginationQuerySchema = z.object({
  page: pageNumber.default(1n).describe(`Page number, 1-based (default 1, at most ${MAX_PAGE}).`),
  limit: wholeNumber("limit", 1, MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Results per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`),
});
export type PaginationQuery = z.output<typeof paginationQuerySchema>;

/**
 * Paging of a list that also walks its changes (extensions.md E10): `page` has no default here, so
 * that a `page` sent with `cursor` is told apart from none and refused (GET /leads, /customers, /pins).
 */
export const feedPaginationQuerySchema = z.object({
  // Default 1 as documented, applied where the walk is told apart (pageOf).
  page: pageNumberWith({ default: 1 })
    .optional()
    .describe(
      `Page number, 1-based (default 1, at most ${MAX_PAGE}). Not with \`cursor\`: a walk pages by its cursor.`,
    ),
  limit: paginationQuerySchema.shape.limit,
});

/** A list request's page: the one asked for, else the first. */
export function pageOf(query: { page?: bigint; limit: number }): PaginationQuery {
  return { page: query.page ?? 1n, limit: query.limit };
}

/** The largest offset a page is given: an exact JS number, as Drizzle's `.offset()` takes one. */
const MAX_PAGE_OFFSET = Number.MAX_SAFE_INTEGER;

/**
 * The number of rows before a page, for raw SQL and `.offset()` alike. Past 2^53 - 1 (a late page)
 * it is clamped there: no table holds that many rows, so the page is just as empty.
 */
export function pageOffset({ page, limit }: PaginationQuery): number {
  const offset = (page - 1n) * BigInt(limit);
  return offset > BigInt(MAX_PAGE_OFFSET) ? MAX_PAGE_OFFSET : Number(offset);
}

export const paginationSchema = z
  .object({
    has_more: z.boolean().describe("Whether more pages are available (page * limit < total)."),
    limit: z.number().int().describe("Page size used."),
    // A bigint as the server sends it, a number once a JSON client has read it.
    page: z
      .union([z.number().int(), z.bigint()])
      .describe("Page number returned, exactly as asked (a JSON integer, beyond 2^53 too)."),
    total: z
      .number()
      .int()
      .describe(
        "Total number of matching records. In a walk (`updated_since` or `cursor`): the records the " +
          "walk has handed out so far, this page's included (a walk's size is known only at its end).",
      ),
    next_cursor: z
      .string()
      .nullable()
      .optional()
      .describe(
        "Only in a walk (`updated_since` or `cursor`): the `cursor` of the next page, or null on the last " +
          "page. A page may come back empty with a cursor while a change being written has not committed yet: ask again.",
      ),
  })
  .describe("Pagination of a list response.");
export type Pagination = z.output<typeof paginationSchema>;

export function paginationOf(query: PaginationQuery, total: number): Pagination {
  return {
    has_more: pageOffset(query) + query.limit < total,
    limit: query.limit,
    page: query.page,
    total,
  };
}

/** `true` or `false` in any case; anything else is a 400. */
export const booleanQuery = (description: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(["true", "false"], { error: "must be true or false" }))
    .transform((v) => v === "true")
    .describe(description);

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Date inputs are limited to years 1 to 9999 in UTC: dates reach the database as ISO 8601 text,
 * which has four-digit years only.
 */
const EARLIEST_DATE = new Date(0).setUTCFullYear(1, 0, 1);
const LATEST_DATE = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const DATE_RANGE_MESSAGE = "must be between 0001-01-01 and 9999-12-31 in UTC";
const DATE_FORMAT_MESSAGE = "must be an ISO 8601 date (2026-03-31) or date-time";

/** A date or date-time's instant, in or out of range; null if it is not one, or not a real calendar date. */
function readIsoDate(value: string, bound: "start" | "end"): Date | null {
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const [y, m, d] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
    const date = new Date(0);
    date.setUTCFullYear(y, m - 1, d);
    if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
    // A date without time means its whole UTC day.
    return bound === "end" ? new Date(date.getTime() + 86_400_000 - 1) : date;
  }
  if (!DATE_TIME.test(value)) return null;
  const [datePart] = value.split(/T/i);
  if (!datePart || !readIsoDate(datePart, "start")) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const inDateRange = (date: Date) => date.getTime() >= EARLIEST_DATE && date.getTime() <= LATEST_DATE;

/** Parses an ISO 8601 date or date-time; null if it is not one, not a real calendar date, or out of range. */
export function parseIsoDate(value: string, bound: "start" | "end" = "start"): Date | null {
  const date = readIsoDate(value, bound);
  return date && inDateRange(date) ? date : null;
}

/**
 * The one check of every date input: ISO 8601 date or date-time (a bare end date includes its
 * whole UTC day), years 1 to 9999 in UTC, else an issue on its field.
 */
export function toIsoDate(value: string, ctx: z.RefinementCtx, bound: "start" | "end" = "start"): Date {
  const date = readIsoDate(value, bound);
  if (!date || !inDateRange(date)) {
    ctx.addIssue({ code: "custom", message: date ? DATE_RANGE_MESSAGE : DATE_FORMAT_MESSAGE });
    return z.NEVER;
  }
  return date;
}

/**
 * A report's backwards date range is a 400 naming the end bound (extensions.md E7); lists answer
 * an empty page instead. Use as `schema.superRefine(rangeInOrder("start", "end"))`.
 */
export function rangeInOrder<Start extends string, End extends string>(start: Start, end: End) {
  return (value: { [K in Start | End]?: Date }, ctx: z.RefinementCtx) => {
    const [from, to] = [value[start], value[end]];
    if (from && to && from.getTime() > to.getTime()) {
      ctx.addIssue({ code: "custom", path: [end], message: `must not be before ${start}` });
    }
  };
}

/*
 * The dates the server takes, as the document states them: calendar dates of years 0001 to 9999, and
 * date-times with hours and minutes, optional seconds and up to nine fraction digits, and an offset.
 * Years 0001 and 9999 take UTC date-times only (an offset could carry them out of range). The
 * server takes a little more (lower-case t and z, +hhmm offsets); the document keeps to the subset
 * every client can send. No lookahead or back-reference, so test generators can read them.
 */
const LEAP_YEAR = "(?:\\d\\d(?:[2468][048]|[13579][26]|0[48])|(?:0[48]|[2468][048]|[13579][26])00)";
const YEAR = "(?:000[1-9]|00[1-9]\\d|0[1-9]\\d\\d|[1-9]\\d{3})";
const MID_YEAR = "(?:000[2-9]|00[1-9]\\d|0[1-9]\\d\\d|[1-8]\\d{3}|9[0-8]\\d\\d|99[0-8]\\d|999[0-8])";
const MONTH_DAY =
  "(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))";
const TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?";
const OFFSET = "(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)";
export const DATE_PATTERN = `^(?:${LEAP_YEAR}-02-29|${YEAR}-${MONTH_DAY})$`;
export const DATE_TIME_PATTERN =
  `^(?:(?:${LEAP_YEAR}-02-29|${MID_YEAR}-${MONTH_DAY})T${TIME}${OFFSET}|` +
  `(?:0001|9999)-${MONTH_DAY}T${TIME}Z)$`;

/** JSON Schema of a date input (a date or a date-time), for `.meta()`. */
export const DOCUMENTED_DATE = {
  anyOf: [
    { format: "date", pattern: DATE_PATTERN },
    { format: "date-time", pattern: DATE_TIME_PATTERN },
  ],
};

/** A query date bound: ISO 8601 date or date-time; a bare end date includes its whole UTC day. */
export const isoDateQuery = (bound: "start" | "end", description: string, examples?: string[]) =>
  z
    .string()
    .meta({ ...DOCUMENTED_DATE, ...(examples ? { examples } : {}) })
    .trim()
    .transform((value, ctx) => toIsoDate(value, ctx, bound))
    .describe(description);

/** The shape of a walk cursor: base64url text, a dot, base64url text (lib/domain/lists/change-feed.ts). */
const CURSOR_FORMAT = /^[A-Za-z0-9_-]{1,1500}\.[A-Za-z0-9_-]{1,100}$/;

/** The change feed's query parameters (extensions.md E10). */
export const feedQueryShape = {
  updated_since: isoDateQuery(
    "start",
    "Walk the changes from this ISO 8601 date-time on, inclusive (a bare date: its start, UTC): the " +
      "records created or changed since, archived ones included, ordered by the time of the change, " +
      "oldest first; `pagination.next_cursor` leads to the next page. Other filters still apply.",
    ["2026-03-01T00:00:00Z"],
  ).optional(),
  cursor: z
    .string()
    .trim()
    .regex(CURSOR_FORMAT, "must be a pagination.next_cursor as a previous page of this walk gave it")
    .optional()
    .describe(
      "Opaque: the `pagination.next_cursor` of the walk's previous page, sent with the same filters. " +
        "Not with `page`. A cursor that was altered, or that belongs to another list or other filters, is a 400.",
    ),
};

/** Timestamps in responses: ISO 8601 in UTC. */
export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

/** A money field of a response, for the API reference. */
export const money = (description: string) =>
  z.number().describe(`${description} Dollars, rounded to cents.`);
/** A count field of a response, for the API reference. */
export const count = (description: string) => z.number().int().min(0).describe(description);

/** Money in responses: dollars rounded to cents. */
export function cents(value: number | string | null | undefined): number {
  const n = typeof value === "string" ? Number(value) : (value ?? 0);
  return Math.round(n * 100) / 100;
}

export const errorBodySchema = z
  .object({
    status: z.literal("error"),
    message: z.string().describe("Human-readable text."),
    error_code: z.string().optional().describe("Present for the coded errors (see the error table)."),
    details: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe("VALIDATION_ERROR: one entry per bad field."),
  })
  .describe("Every error response.");

/** One field of a list's `sort`: the field, and whether it runs descending (`-field`). */
export interface SortItem<F extends string = string> {
  field: F;
  descending: boolean;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The JSON Schema of a `sort` value: the pattern of known fields, and, one per field, the pattern
 * of that field named twice, which `not` excludes (JSON Schema has no "each item once" for text).
 */
export function documentedSort(fields: readonly string[]) {
  const item = `\\s*-?(?:${fields.map(escapeRegExp).join("|")})\\s*`;
  const twice = (field: string) => {
    const named = `\\s*-?${escapeRegExp(field)}\\s*`;
    return { pattern: `(?:^|,)${named},(?:[\\s\\S]*,)?${named}(?:,|$)` };
  };
  return { pattern: `^${item}(?:,${item})*$`, not: { anyOf: fields.map(twice) } };
}

/**
 * A list's `sort` (extensions.md E2): comma-separated fields, `-` for descending, `id` desc as the
 * final tie-break. An unknown, repeated or empty item is a 400 naming `sort`.
 */
export const sortQuery = <F extends string>(
  fields: readonly [F, ...F[]],
  description: string,
  examples: string[],
) =>
  z
    .string()
    .meta({ ...documentedSort(fields), examples })
    .transform((value, ctx): SortItem<F>[] => {
      const items = value.split(",").map((item) => item.trim());
      const known: ReadonlySet<string> = new Set(fields);
      const seen = new Set<string>();
      const sort: SortItem<F>[] = [];
      for (const item of items) {
        const descending = item.startsWith("-");
        const field = descending ? item.slice(1) : item;
        const problem = !item
          ? "must not hold an empty field"
          : !known.has(field)
            ? `unknown sort field "${item}": use ${fields.join(", ")}, each with "-" for descending`
            : seen.has(field)
              ? `"${field}" is sorted by twice`
              : undefined;
        if (problem) {
          ctx.addIssue({ code: "custom", message: problem });
          return z.NEVER;
        }
        seen.add(field);
        sort.push({ field: field as F, descending });
      }
      return sort;
    })
    .describe(description);

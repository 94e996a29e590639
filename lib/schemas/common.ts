import { z } from "zod";

/** Page and limit of every paginated list (contract section 5). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
/** The largest offset the database takes (OFFSET is a bigint). */
const MAX_OFFSET = 2n ** 63n - 1n;
/**
 * The last page a request may ask for: its offset at the largest page size fits the database's
 * bigint, and the page itself is a JS number exactly, so that `pagination.page` echoes it
 * unchanged. A page past the data answers an empty page with the true total (contract section 5).
 */
export const MAX_PAGE = Math.min(Number.MAX_SAFE_INTEGER, Number(MAX_OFFSET / BigInt(MAX_PAGE_SIZE) + 1n));

/**
 * A whole number from a query string, compared exactly (as a bigint) with its bounds; the pipe
 * states them for the API reference.
 */
const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      const problem = !/^\d+$/.test(value)
        ? `${name} must be a whole number`
        : BigInt(value) < BigInt(min)
          ? `${name} must be at least ${min}`
          : BigInt(value) > BigInt(max)
            ? `${name} must be at most ${max}`
            : undefined;
      if (problem) {
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return Number(value);
    })
    .pipe(z.number().int().min(min).max(max));

export const paginationQuerySchema = z.object({
  page: wholeNumber("page", 1, MAX_PAGE).default(1).describe("Page number, 1-based (default 1)."),
  limit: wholeNumber("limit", 1, MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Results per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`),
});
export type PaginationQuery = z.output<typeof paginationQuerySchema>;

/**
 * The number of rows before a page, exact (a bigint: past 2^53 a JS number would round it) and
 * within the database's OFFSET for every page and limit the schema accepts.
 */
export function pageOffset({ page, limit }: PaginationQuery): bigint {
  return (BigInt(page) - 1n) * BigInt(limit);
}

export const paginationSchema = z
  .object({
    has_more: z.boolean().describe("Whether more pages are available (page * limit < total)."),
    limit: z.number().int().describe("Page size used."),
    page: z.number().int().describe("Page number returned."),
    total: z.number().int().describe("Total number of matching records."),
  })
  .describe("Pagination of a list response.");
export type Pagination = z.output<typeof paginationSchema>;

export function paginationOf(query: PaginationQuery, total: number): Pagination {
  return {
    has_more: pageOffset(query) + BigInt(query.limit) < BigInt(total),
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
 * The instants a date input may name: years 1 to 9999 in UTC. The database stores more, but a
 * date is sent to it as ISO 8601 text, which has four-digit years only (`9999-12-31T23:59:59-14:00`
 * is year 10000 in UTC).
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
 * The one check of every date input, query or body (a zod transform's body): an ISO 8601 date or
 * date-time (a bare end date includes its whole UTC day) within years 1 to 9999 in UTC, else an
 * issue on its field.
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
 * A report's date range that runs backwards (its start after its end) is a 400 naming the end
 * bound (extensions.md E7); the lists answer such a range with an empty page instead. As a zod
 * check: `schema.superRefine(rangeInOrder("created_at_range_start", "created_at_range_end"))`.
 */
export function rangeInOrder<Start extends string, End extends string>(start: Start, end: End) {
  return (value: { [K in Start | End]?: Date }, ctx: z.RefinementCtx) => {
    const [from, to] = [value[start], value[end]];
    if (from && to && from.getTime() > to.getTime()) {
      ctx.addIssue({ code: "custom", path: [end], message: `must not be before ${start}` });
    }
  };
}

/** A query date bound: ISO 8601 date or date-time; a bare end date includes its whole UTC day. */
export const isoDateQuery = (bound: "start" | "end", description: string) =>
  z
    .string()
    .trim()
    .transform((value, ctx) => toIsoDate(value, ctx, bound))
    .describe(description);

/** Timestamps in responses: ISO 8601 in UTC. */
export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

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

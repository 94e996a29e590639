import { z } from "zod";

/** Page and limit of every paginated list (contract section 5). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
/** Keeps the offset of a far page within range; far beyond any real data set. */
export const MAX_PAGE = 1_000_000_000;

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(
      z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`),
    );

export const paginationQuerySchema = z.object({
  page: wholeNumber("page", 1, MAX_PAGE).default(1).describe("Page number, 1-based (default 1)."),
  limit: wholeNumber("limit", 1, MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Results per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`),
});
export type PaginationQuery = z.output<typeof paginationQuerySchema>;

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
  return { has_more: query.page * query.limit < total, limit: query.limit, page: query.page, total };
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

/** Parses an ISO 8601 date or date-time; null if it is not one, or not a real calendar date. */
export function parseIsoDate(value: string, bound: "start" | "end" = "start"): Date | null {
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const [y, m, d] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    const date = new Date(Date.UTC(y, m - 1, d));
    if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
    // A date without time means its whole UTC day.
    return bound === "end" ? new Date(date.getTime() + 86_400_000 - 1) : date;
  }
  if (!DATE_TIME.test(value)) return null;
  const [datePart] = value.split(/T/i);
  if (!datePart || !parseIsoDate(datePart)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A query date bound: ISO 8601 date or date-time; a bare end date includes its whole UTC day. */
export const isoDateQuery = (bound: "start" | "end", description: string) =>
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      const date = parseIsoDate(value, bound);
      if (!date) {
        ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date (2026-03-31) or date-time" });
        return z.NEVER;
      }
      return date;
    })
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

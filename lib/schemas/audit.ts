import { z } from "zod";
import { isoDateQuery, paginationQuerySchema, paginationSchema, rangeInOrder } from "./common";
import { maxChars, nonBlank } from "./text";

// GET /api/settings/audit-log (extensions.md E11): who changed which setting, newest first.

export const auditLogFiltersSchema = z.object({
  actor: maxChars(nonBlank(z.string().trim()), 100)
    .optional()
    .describe("Only changes made by this user (their id)."),
  kind: maxChars(nonBlank(z.string().trim()), 100)
    .optional()
    .describe("Only entries of this kind, e.g. `user.role_changed`."),
  from: isoDateQuery(
    "start",
    "From this time on, ISO 8601 date or date-time (a date: from its start in UTC).",
  ),
  to: isoDateQuery("end", "Up to this time, inclusive (a date: its whole UTC day)."),
});

export const auditLogQuerySchema = paginationQuerySchema
  .extend(auditLogFiltersSchema.partial().shape)
  .superRefine(rangeInOrder("from", "to"))
  .describe("Query of the audit log.");
export type AuditLogQuery = z.output<typeof auditLogQuerySchema>;

export const auditLogExportQuerySchema = auditLogFiltersSchema
  .partial()
  .superRefine(rangeInOrder("from", "to"))
  .describe("Query of the audit log's CSV export.");
export type AuditLogExportQuery = z.output<typeof auditLogExportQuerySchema>;

const auditValueSchema: z.ZodType<unknown> = z
  .union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(z.union([z.string(), z.number()])),
    z.object({}),
  ])
  .describe("A value: text, number, yes/no, a list, an object (a stage, a pin type) or null.");

export const auditEntrySchema = z
  .object({
    id: z.string().describe("Entry id, `aud_…`."),
    at: z.string().describe("When, ISO 8601."),
    actor: z
      .object({
        id: z.string().nullable().describe("The user's id; null when an API key made the change."),
        name: z.string().describe("The actor's name when the change was made."),
      })
      .describe("Who made the change."),
    ip: z.string().nullable().describe("The client's IP address, when known."),
    kind: z.string().describe("What happened, dotted: `user.role_changed`, `api_key.created`…"),
    target: z
      .object({
        type: z.string().describe("What was changed: user, api_key, pipeline, pin_types, territory…"),
        id: z.string().nullable().describe("Its id; null for a company-wide setting (the pipeline)."),
      })
      .describe("What was changed."),
    changes: z
      .array(
        z
          .object({ field: z.string(), from: auditValueSchema, to: auditValueSchema })
          .describe("One changed field, before and after. Never a secret, a password or a hash."),
      )
      .describe("The changed fields."),
  })
  .describe("One entry of the audit log.");
export type AuditEntry = z.output<typeof auditEntrySchema>;

export const auditLogResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(auditEntrySchema).describe("The page of entries, newest first."),
    pagination: paginationSchema,
  })
  .describe("A page of the audit log.");
export type AuditLogResponse = z.output<typeof auditLogResponseSchema>;

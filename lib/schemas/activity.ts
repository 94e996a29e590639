import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { ACTIVITY_ACTOR_KINDS, ACTIVITY_TYPES } from "@/lib/values/enums";
import { paginationQuerySchema, paginationSchema } from "./common";

// ---------------------------------------------------------------------------------------------
// GET /api/leads/{id}/activity, GET /api/customers/{id}/activity (extensions.md E3)

export const activityQuerySchema = paginationQuerySchema.describe("Query of a record's activity.");
export type ActivityQuery = z.output<typeof activityQuerySchema>;

export const activityActorSchema = z
  .object({
    kind: z
      .enum(ACTIVITY_ACTOR_KINDS)
      .describe("user: a dashboard user; api_key: an integration's API key; import: the import command."),
    id: z.string().nullable().describe("The user's or API key's id; null for the import."),
    name: z
      .string()
      .describe("The user's name or the API key's name as they are now; \"Import\" for the import."),
  })
  .describe("Who made the change.");

/** A field's value in a change: as the record's answer gives it (text, number, yes/no, a list). */
const activityValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number()])),
  z.null(),
]);

export const activityChangeSchema = z
  .object({
    field: z
      .string()
      .describe("The field as the record's GET answer names it (a nested one with a dot: `address.city`)."),
    from: activityValueSchema.describe("Its value before (null: empty)."),
    to: activityValueSchema.describe("Its value after (null: empty)."),
  })
  .describe("One changed field.");

export const activityEntrySchema = z
  .object({
    id: z.string().describe("Entry id."),
    at: z.string().describe("When it happened, ISO 8601."),
    type: z
      .enum(ACTIVITY_TYPES)
      .describe(
        "created, updated (see changes), archived, unarchived, note (see note) or converted " +
          "(a lead made into a customer, or the customer made from it; see related_id).",
      ),
    actor: activityActorSchema,
    changes: z
      .array(activityChangeSchema)
      .describe(
        "An update's changed fields (a conversion's too: the lead's stage and customer_id); empty " +
          "for the other types and for an update by the import.",
      ),
    note: z.string().nullable().describe("A note's text; null for the other types."),
    related_id: z
      .string()
      .nullable()
      .describe("A conversion's other record: the customer of a lead, the lead of a customer."),
  })
  .describe("One entry of a record's activity.");
export type ActivityEntry = z.output<typeof activityEntrySchema>;

export const listActivityResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(activityEntrySchema).describe("The page of entries, newest first (id desc tie-break)."),
    pagination: paginationSchema,
  })
  .describe("A page of a record's activity.");
export type ListActivityResponse = z.output<typeof listActivityResponseSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/leads/{id}/notes, POST /api/customers/{id}/notes

export const NOTE_MAX_LENGTH = 10_000;

export const addNoteBodySchema = z
  .object({
    body: maxChars(nonBlank(z.string()), NOTE_MAX_LENGTH).describe(
      `The note, 1 to ${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters (not only spaces).`,
    ),
  })
  .describe("Body of POST /leads/{id}/notes and POST /customers/{id}/notes.");
export type AddNoteBody = z.output<typeof addNoteBodySchema>;

export const addNoteResponseSchema = z
  .object({ status: z.literal("success"), data: activityEntrySchema })
  .describe("The note's activity entry.");
export type AddNoteResponse = z.output<typeof addNoteResponseSchema>;

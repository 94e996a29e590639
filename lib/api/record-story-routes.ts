import "server-only";
import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import type { ActivityRecordType } from "@/lib/db/schema";
import { addNote, listActivity } from "@/lib/domain/activity/activity";
import { setArchived } from "@/lib/domain/activity/archive";
import { getCustomerOrThrow } from "@/lib/domain/customers";
import { getLeadOrThrow } from "@/lib/domain/leads";
import {
  activityQuerySchema,
  addNoteBodySchema,
  addNoteResponseSchema,
  listActivityResponseSchema,
  NOTE_MAX_LENGTH,
} from "@/lib/schemas/activity";
import { customerIdParamsSchema, getCustomerResponseSchema } from "@/lib/schemas/customers";
import { getLeadResponseSchema, leadIdParamsSchema } from "@/lib/schemas/leads";
import { named } from "./route-docs";

/**
 * The routes of a lead's or customer's story (extensions.md E3), alike for both: its activity,
 * its notes, and archiving it. Each route file exports one of these.
 */
export function recordStoryRoutes(recordType: ActivityRecordType) {
  const read = recordType === "lead" ? "leads:read" : "customers:read";
  const write = recordType === "lead" ? "leads:write" : "customers:write";
  const params = recordType === "lead" ? leadIdParamsSchema : customerIdParamsSchema;
  const getRecord = recordType === "lead" ? getLeadOrThrow : getCustomerOrThrow;
  // For the docs: the record's names, an example id and the answer of its GET.
  const plural = recordType === "lead" ? "leads" : "customers";
  const Name = recordType === "lead" ? "Lead" : "Customer";
  const tag = recordType === "lead" ? "Leads" : "Customers";
  const exampleId =
    recordType === "lead" ? "lead_01jq8m2x4kd7w3a9c5v6r8t0ye" : "cus_01jq8m2x4kd7w3a9c5v6r8t0ye";
  const record = named(
    recordType === "lead" ? "GetLeadResponse" : "GetCustomerResponse",
    recordType === "lead" ? getLeadResponseSchema : getCustomerResponseSchema,
  );
  const archiving = (archived: boolean) => ({
    ...methodsNotAllowed("POST"),
    POST: apiRoute({
      permission: write,
      params,
      handler: async ({ ctx, params: { id } }) => {
        await setArchived({ ctx, recordType, id, archived });
        return { status: "success", data: await getRecord({ ctx, input: { id } }) };
      },
      docs: {
        tag,
        operationId: `${archived ? "archive" : "unarchive"}${Name}`,
        summary: `${archived ? "Archive" : "Unarchive"} a ${recordType}`,
        description:
          `${archived ? "Archives" : "Unarchives"} the ${recordType} (\`archived\`, \`archived_at\`) and records an ` +
          `\`${archived ? "archived" : "unarchived"}\` entry in its activity, in one transaction. A ${recordType} ` +
          `that already is so is answered as it is, with no new entry. No body. ${
            archived
              ? `Archived ${plural} leave the default list (\`archived=true\` shows them) and still match on create-or-update.`
              : ""
          }`.trim(),
        responses: [{ status: 200, description: `The ${recordType}, as GET answers it.`, schema: record }],
        notFound: Name,
        example: { params: { id: exampleId } },
      },
    }),
  });
  return {
    // GET …/{id}/activity – the record's history, newest first
    activity: {
      ...methodsNotAllowed("GET"),
      GET: apiRoute({
        permission: read,
        params,
        query: activityQuerySchema,
        handler: ({ ctx, params: { id }, query }) =>
          listActivity({ ctx, recordType, recordId: id, input: query }),
        docs: {
          tag,
          operationId: `list${Name}Activity`,
          summary: `A ${recordType}'s activity`,
          description: [
            `What happened to the ${recordType}, newest first (entries written in the same transaction are in ` +
              "the order they were written): `created`, `updated` (each changed field with its value " +
              "before and after, as the record's GET answer spells it), `archived`, `unarchived`, " +
              "`note` and `converted`, from the API, the dashboard and the import alike.",
            "`actor` is who did it: a dashboard user, an API key (its name as it is now) or the import. " +
              "An update by the import is recorded without its changed fields.",
          ].join("\n\n"),
          responses: [
            {
              status: 200,
              description: "A page of the activity.",
              schema: named("ListActivityResponse", listActivityResponseSchema),
            },
          ],
          notFound: Name,
          example: { params: { id: exampleId }, query: { limit: "20" } },
        },
      }),
    },
    // POST …/{id}/notes – a note on the record, kept in its activity (201)
    notes: {
      ...methodsNotAllowed("POST"),
      POST: apiRoute({
        permission: write,
        params,
        body: addNoteBodySchema,
        handler: async ({ ctx, params: { id }, body }) =>
          respond(
            { status: "success", data: await addNote({ ctx, recordType, recordId: id, body: body.body }) },
            201,
          ),
        docs: {
          tag,
          operationId: `add${Name}Note`,
          summary: `Add a note to a ${recordType}`,
          description:
            `A note on the ${recordType}, kept in its activity with who wrote it and when. \`body\`: 1 to ` +
            `${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters, not only spaces. Notes are found by ` +
            (recordType === "lead" ? "the `note` filter of `GET /leads`." : "reading the activity."),
          bodyName: "AddNoteBody",
          responses: [
            {
              status: 201,
              description: "The note's activity entry.",
              schema: named("AddNoteResponse", addNoteResponseSchema),
            },
          ],
          notFound: Name,
          example: {
            params: { id: exampleId },
            body: { body: "Called back: wants a quote for the back yard too." },
          },
        },
      }),
    },
    // POST …/{id}/archive and …/unarchive, recorded in its activity; the record as GET answers it
    archive: archiving(true),
    unarchive: archiving(false),
  };
}

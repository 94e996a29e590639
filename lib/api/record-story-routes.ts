import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import type { ActivityRecordType } from "@/lib/db/schema";
import { addNote, listActivity } from "@/lib/domain/activity/activity";
import { setArchived } from "@/lib/domain/activity/archive";
import { getCustomerOrThrow } from "@/lib/domain/customers";
import { getLeadOrThrow } from "@/lib/domain/leads";
import { activityQuerySchema, addNoteBodySchema } from "@/lib/schemas/activity";
import { customerIdParamsSchema } from "@/lib/schemas/customers";
import { leadIdParamsSchema } from "@/lib/schemas/leads";

/**
 * The routes of a lead's or customer's story (extensions.md E3), alike for both: its activity,
 * its notes, and archiving it. Each route file exports one of these.
 */
export function recordStoryRoutes(recordType: ActivityRecordType) {
  const read = recordType === "lead" ? "leads:read" : "customers:read";
  const write = recordType === "lead" ? "leads:write" : "customers:write";
  const params = recordType === "lead" ? leadIdParamsSchema : customerIdParamsSchema;
  const getRecord = recordType === "lead" ? getLeadOrThrow : getCustomerOrThrow;
  const archiving = (archived: boolean) => ({
    ...methodsNotAllowed("POST"),
    POST: apiRoute({
      permission: write,
      params,
      handler: async ({ ctx, params: { id } }) => {
        await setArchived({ ctx, recordType, id, archived });
        return { status: "success", data: await getRecord({ ctx, input: { id } }) };
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
      }),
    },
    // POST …/{id}/archive and …/unarchive, recorded in its activity; the record as GET answers it
    archive: archiving(true),
    unarchive: archiving(false),
  };
}

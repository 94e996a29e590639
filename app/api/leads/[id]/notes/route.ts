import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { addNote } from "@/lib/domain/activity/activity";
import { addNoteBodySchema } from "@/lib/schemas/activity";
import { leadIdParamsSchema } from "@/lib/schemas/leads";

// POST /api/leads/{id}/notes – a note on the lead, kept in its activity (201)
export const POST = apiRoute({
  scopes: ["leads:write"],
  params: leadIdParamsSchema,
  body: addNoteBodySchema,
  handler: async ({ ctx, params, body }) =>
    respond(
      {
        status: "success",
        data: await addNote({ ctx, recordType: "lead", recordId: params.id, body: body.body }),
      },
      201,
    ),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

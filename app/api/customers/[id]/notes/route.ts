import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { addNote } from "@/lib/domain/activity/activity";
import { addNoteBodySchema } from "@/lib/schemas/activity";
import { customerIdParamsSchema } from "@/lib/schemas/customers";

// POST /api/customers/{id}/notes – a note on the customer, kept in its activity (201)
export const POST = apiRoute({
  scopes: ["customers:write"],
  params: customerIdParamsSchema,
  body: addNoteBodySchema,
  handler: async ({ ctx, params, body }) =>
    respond(
      {
        status: "success",
        data: await addNote({ ctx, recordType: "customer", recordId: params.id, body: body.body }),
      },
      201,
    ),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { setArchived } from "@/lib/domain/activity/archive";
import { getLeadOrThrow } from "@/lib/domain/leads";
import { leadIdParamsSchema } from "@/lib/schemas/leads";

// POST /api/leads/{id}/archive – archive the lead, recorded in its activity; the lead as GET answers it
export const POST = apiRoute({
  scopes: ["leads:write"],
  params: leadIdParamsSchema,
  handler: async ({ ctx, params }) => {
    await setArchived({ ctx, recordType: "lead", id: params.id, archived: true });
    return { status: "success", data: await getLeadOrThrow({ ctx, input: params }) };
  },
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

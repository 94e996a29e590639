import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { setArchivedMany } from "@/lib/domain/activity/archive";
import { bulkCustomersBodySchema, type BulkCustomersResponse } from "@/lib/schemas/customer-bulk";

// POST /api/customers/bulk – archive or unarchive many customers, all or nothing
export const POST = apiRoute({
  permission: "customers:write",
  body: bulkCustomersBodySchema,
  handler: async ({ ctx, body }): Promise<BulkCustomersResponse> => {
    const { matched, changedIds } = await setArchivedMany({
      ctx,
      recordType: "customer",
      ids: body.ids,
      archived: body.action.type === "archive",
    });
    return { status: "success", matched, changed: changedIds.length, changed_ids: changedIds };
  },
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listPins } from "@/lib/domain/pins/list";
import { getPinsQuerySchema } from "@/lib/schemas/pins";

// GET /api/pins – list map pins
export const GET = apiRoute({
  scopes: ["pins:read"],
  query: getPinsQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listPins({ ctx, input: query })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

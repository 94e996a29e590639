import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listPinTypes } from "@/lib/domain/pin-types/list";

// GET /api/pin-types – list the company's pin types
export const GET = apiRoute({
  permission: "pin_types:read",
  handler: async ({ ctx }) => ({ ...(await listPinTypes({ ctx })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listPinTypes } from "@/lib/domain/pin-types/list";

// GET /api/pin-types – list the company's pin types
export const GET = apiRoute({
  // leads:read keeps keys made for the original interface working (contract section 4).
  scopes: ["pin_types:read", "leads:read"],
  scopeNamed: "leads:read",
  handler: async ({ ctx }) => ({ ...(await listPinTypes({ ctx })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

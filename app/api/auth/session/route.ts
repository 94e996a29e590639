import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getSessionInfo } from "@/lib/domain/users/get-session-info";

// GET /api/auth/session – the signed-in dashboard user, their company and their role's scopes
export const GET = apiRoute({
  auth: "session",
  handler: async ({ ctx }) => ({ ...(await getSessionInfo({ ctx })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

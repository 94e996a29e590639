import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getSessionInfo } from "@/lib/domain/users/get-session-info";
import { named } from "@/lib/api/route-docs";
import { sessionInfoSchema } from "@/lib/schemas/session";

// GET /api/auth/session – the signed-in dashboard user, their company and their role's scopes
export const GET = apiRoute({
  auth: "session",
  handler: async ({ ctx }) => ({ ...(await getSessionInfo({ ctx })) }),
  docs: {
    tag: "Dashboard session",
    operationId: "getSession",
    summary: "Get the signed-in user",
    description:
      "The signed-in dashboard user, their company, their role's scopes and whether they may manage settings.",
    responses: [
      { status: 200, description: "The session.", schema: named("SessionInfo", sessionInfoSchema) },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

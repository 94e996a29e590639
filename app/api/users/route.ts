import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listAssignableUsers } from "@/lib/domain/users/assignable-users";

// GET /api/users – the company's active users a lead can be assigned to (id, name, role)
export const GET = apiRoute({
  permission: "leads:read",
  handler: ({ ctx }) => listAssignableUsers({ ctx }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listAssignableUsers } from "@/lib/domain/users/assignable-users";
import { named } from "@/lib/api/route-docs";
import { listAssignableUsersResponseSchema } from "@/lib/schemas/lead-owners";

// GET /api/users – the company's active users a lead can be assigned to (id, name, role)
export const GET = apiRoute({
  permission: "leads:read",
  handler: ({ ctx }) => listAssignableUsers({ ctx }),
  docs: {
    tag: "Users",
    operationId: "listUsers",
    summary: "List assignable users",
    description:
      "The company's active users, by `name` (then `id`): their `id`, `name` and `role`, to choose a " +
      "lead's owner. Not paginated. Emails and deactivated users are left out; admins manage users " +
      "in the dashboard's settings.",
    responses: [
      {
        status: 200,
        description: "The company's active users.",
        schema: named("ListUsersResponse", listAssignableUsersResponseSchema),
      },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

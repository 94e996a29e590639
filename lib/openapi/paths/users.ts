import { assignableUserSchema, listAssignableUsersResponseSchema } from "@/lib/schemas/lead-owners";
import { named, type ResourceSpec } from "../types";

export const usersPaths: ResourceSpec = {
  tag: "Users",
  description: "The people leads are assigned to (a lead's `assigned_to`).",
  components: [named("AssignableUser", assignableUserSchema)],
  endpoints: [
    {
      method: "GET",
      path: "/users",
      operationId: "listUsers",
      summary: "List assignable users",
      description:
        "The company's active users, by `name` (then `id`): their `id`, `name` and `role`, to choose a " +
        "lead's owner. Not paginated. Emails and deactivated users are left out; admins manage users " +
        "in the dashboard's settings.",
      scopes: ["leads:read"],
      responses: [
        {
          status: 200,
          description: "The company's active users.",
          schema: named("ListUsersResponse", listAssignableUsersResponseSchema),
        },
      ],
    },
  ],
};

import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { changeUserRole, createUser, listUsers } from "@/lib/domain/users/users";
import {
  userBodySchema,
  userListSchema,
  userRecordSchema,
  type CreateUserBody,
} from "@/lib/schemas/settings";
import { named } from "@/lib/api/route-docs";

// GET /api/settings/users – the company's dashboard users (admins, dashboard only)
export const GET = apiRoute({
  permission: "users:manage",
  handler: async ({ ctx }) => ({ ...(await listUsers({ ctx })) }),
  docs: {
    tag: "Settings",
    operationId: "listSettingsUsers",
    summary: "List users",
    description: "The company's dashboard users, by name. Never a password hash.",
    responses: [{ status: 200, description: "The users.", schema: named("UserList", userListSchema) }],
  },
});

// POST /api/settings/users – add a user with a role and an initial password, or change a user's role
export const POST = apiRoute({
  permission: "users:manage",
  body: userBodySchema,
  handler: async ({ ctx, body }) =>
    body.id === undefined
      ? respond(await createUser({ ctx, input: body as CreateUserBody }), 201)
      : respond(await changeUserRole({ ctx, input: { id: body.id, role: body.role } }), 200),
  docs: {
    tag: "Settings",
    operationId: "createUser",
    summary: "Add a user or change a role",
    description:
      "Without `id`: adds a dashboard user with a role and an initial password; the email must be new in " +
      "the company (201). With `id` and `role` only: changes that user's role (200); it applies to the " +
      "user's open sessions at their next request. Demoting the company's last active admin is a 409. " +
      "Both are written to the audit log (never the password).",
    bodyName: "UserBody",
    responses: [
      { status: 201, description: "The new user.", schema: named("User", userRecordSchema) },
      { status: 200, description: "The user with their new role.", schema: named("User", userRecordSchema) },
    ],
    notFound: "User",
    errors: ["CONFLICT"],
    errorMessages: { CONFLICT: "A user with the email sam@example.com already exists" },
    example: {
      body: {
        name: "Sam Rivera",
        email: "sam@example.com",
        role: "sales_rep",
        password: "<initial password>",
      },
    },
    moreExamples: [
      {
        name: "changeRole",
        summary: "Change a user's role",
        body: { id: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye", role: "manager" },
      },
    ],
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");

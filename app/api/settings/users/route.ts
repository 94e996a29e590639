import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { createUser, listUsers } from "@/lib/domain/users/users";
import { createUserBodySchema, userListSchema, userRecordSchema } from "@/lib/schemas/settings";
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

// POST /api/settings/users – add a user with a role and an initial password
export const POST = apiRoute({
  permission: "users:manage",
  body: createUserBodySchema,
  handler: async ({ ctx, body }) => respond(await createUser({ ctx, input: body }), 201),
  docs: {
    tag: "Settings",
    operationId: "createUser",
    summary: "Add a user",
    description:
      "Adds a dashboard user with a role and an initial password. The email must be new in the company.",
    bodyName: "CreateUserBody",
    responses: [{ status: 201, description: "The new user.", schema: named("User", userRecordSchema) }],
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
  },
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { createUser, listUsers } from "@/lib/domain/users/users";
import { createUserBodySchema } from "@/lib/schemas/settings";

// GET /api/settings/users – the company's dashboard users (admins, dashboard only)
export const GET = apiRoute({
  permission: "users:manage",
  handler: async ({ ctx }) => ({ ...(await listUsers({ ctx })) }),
});

// POST /api/settings/users – add a user with a role and an initial password
export const POST = apiRoute({
  permission: "users:manage",
  body: createUserBodySchema,
  handler: async ({ ctx, body }) => respond(await createUser({ ctx, input: body }), 201),
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

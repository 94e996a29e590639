import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { describeCredentials } from "@/lib/domain/auth-test";
import { named } from "@/lib/api/route-docs";
import { authTestResponseSchema } from "@/lib/schemas/auth";

// GET /api/auth/test – report whether the credentials are valid and what they carry
export const GET = apiRoute({
  handler: async ({ ctx }) => ({ ...describeCredentials({ ctx }) }),
  docs: {
    tag: "Authentication",
    operationId: "testAuthentication",
    summary: "Check the credentials",
    description:
      "Answers whether the credentials are valid, the company they belong to and the scopes they " +
      'carry. Any valid key works; no scope is needed. `user_id` is null and `auth_method` is "api_key" ' +
      'for a key; a dashboard session answers "session" and the user\'s id.',
    responses: [
      {
        status: 200,
        description: "The credentials are valid.",
        schema: named("AuthTestResponse", authTestResponseSchema),
      },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

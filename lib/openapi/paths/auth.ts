import { authTestResponseSchema } from "@/lib/schemas/auth";
import { named, type ResourceSpec } from "../types";

export const authPaths: ResourceSpec = {
  tag: "Authentication",
  description: "Check which company and scopes a key (or a dashboard session) carries.",
  endpoints: [
    {
      method: "GET",
      path: "/auth/test",
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
  ],
};

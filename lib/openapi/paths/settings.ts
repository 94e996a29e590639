import { DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";
import {
  apiKeyListSchema,
  apiKeyRecordSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  createUserBodySchema,
  idParamsSchema,
  userListSchema,
  userRecordSchema,
} from "@/lib/schemas/settings";
import { named, type EndpointSpec, type ResourceSpec } from "../types";
import { pinTypeSettingsEndpoints } from "./pin-types";
import { pipelineSettingsEndpoints } from "./pipeline";

const apiKey = named("ApiKey", apiKeyRecordSchema);
const user = named("User", userRecordSchema);

/** Every settings endpoint: a signed-in admin's dashboard session, nothing else. */
const admin = { auth: "session", roles: ["admin"] } as const satisfies Partial<EndpointSpec>;

export const settingsPaths: ResourceSpec = {
  tag: "Settings",
  description:
    "API keys, dashboard users, the lead pipeline and the pin types of the company. Dashboard only: a signed-in admin's session; an API key or " +
    "another role gets 403 FORBIDDEN.",
  components: [apiKey, user],
  endpoints: [
    {
      ...admin,
      method: "GET",
      path: "/settings/api-keys",
      operationId: "listApiKeys",
      summary: "List API keys",
      description: "The company's keys, newest first, with today's use. Never the secret or its hash.",
      responses: [{ status: 200, description: "The keys.", schema: named("ApiKeyList", apiKeyListSchema) }],
    },
    {
      ...admin,
      method: "POST",
      path: "/settings/api-keys",
      operationId: "createApiKey",
      summary: "Create an API key",
      description:
        "Creates a key with the chosen scopes and daily limit. The answer carries the secret `key` this once; " +
        "only its hash is stored.",
      body: named("CreateApiKeyBody", createApiKeyBodySchema),
      responses: [
        {
          status: 201,
          description: "The new key, with its secret.",
          schema: named("CreatedApiKey", createdApiKeySchema),
        },
      ],
      example: { body: { name: "Website form", scopes: ["leads:write"], daily_limit: DEFAULT_DAILY_LIMIT } },
    },
    {
      ...admin,
      method: "POST",
      path: "/settings/api-keys/{id}/revoke",
      operationId: "revokeApiKey",
      summary: "Revoke an API key",
      description:
        "The key stops working at once (401 INVALID_API_KEY). Revoking a revoked key changes nothing.",
      params: idParamsSchema,
      paramDescriptions: { id: "The API key's id." },
      responses: [{ status: 200, description: "The revoked key.", schema: apiKey }],
      notFound: "API key",
      example: { params: { id: "key_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
    },
    {
      ...admin,
      method: "GET",
      path: "/settings/users",
      operationId: "listUsers",
      summary: "List users",
      description: "The company's dashboard users, by name. Never a password hash.",
      responses: [{ status: 200, description: "The users.", schema: named("UserList", userListSchema) }],
    },
    {
      ...admin,
      method: "POST",
      path: "/settings/users",
      operationId: "createUser",
      summary: "Add a user",
      description:
        "Adds a dashboard user with a role and an initial password. The email must be new in the company.",
      body: named("CreateUserBody", createUserBodySchema),
      responses: [{ status: 201, description: "The new user.", schema: user }],
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
    {
      ...admin,
      method: "POST",
      path: "/settings/users/{id}/deactivate",
      operationId: "deactivateUser",
      summary: "Deactivate a user",
      description:
        "The user can no longer sign in and their sessions end. Admins cannot deactivate themselves.",
      params: idParamsSchema,
      paramDescriptions: { id: "The user's id." },
      responses: [{ status: 200, description: "The deactivated user.", schema: user }],
      notFound: "User",
      example: { params: { id: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
    },
    {
      ...admin,
      method: "POST",
      path: "/settings/users/{id}/activate",
      operationId: "activateUser",
      summary: "Reactivate a user",
      description: "The user can sign in again with their password.",
      params: idParamsSchema,
      paramDescriptions: { id: "The user's id." },
      responses: [{ status: 200, description: "The reactivated user.", schema: user }],
      notFound: "User",
      example: { params: { id: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
    },
    ...pipelineSettingsEndpoints,
    ...pinTypeSettingsEndpoints,
  ],
};

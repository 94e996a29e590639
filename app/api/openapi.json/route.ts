import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { getOpenApiDocument } from "@/lib/openapi/document";

// GET /api/openapi.json – the OpenAPI 3.1 document of this API (public: no key, no version header)
export const GET = apiRoute({
  auth: "none",
  requireVersion: false,
  handler: async () => respond(getOpenApiDocument(), 200, { "cache-control": "public, max-age=300" }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

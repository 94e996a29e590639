import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { z } from "zod";

const openApiDocumentSchema = z
  .record(z.string(), z.unknown())
  .describe("This OpenAPI 3.1 document (generated from the same zod schemas that validate requests).");

// GET /api/openapi.json – the OpenAPI 3.1 document of this API (public: no key, no version header)
export const GET = apiRoute({
  auth: "none",
  requireVersion: false,
  handler: async () => {
    // Loaded here, not imported above: the route index imports this file.
    const { getOpenApiDocument } = await import("../routes");
    return respond(getOpenApiDocument(), 200, { "cache-control": "public, max-age=300" });
  },
  docs: {
    tag: "Meta",
    operationId: "getOpenApiDocument",
    summary: "Get the OpenAPI document",
    description:
      "The OpenAPI 3.1 document of this API. Public: no key, no session and no `service-api-version` " +
      "header needed; cacheable for five minutes.",
    responses: [
      {
        status: 200,
        description: "The OpenAPI 3.1 document.",
        schema: named("OpenApiDocument", openApiDocumentSchema),
        headers: { "Cache-Control": "public, max-age=300" },
      },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

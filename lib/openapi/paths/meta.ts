import { z } from "zod";
import { named, type ResourceSpec } from "../types";

const openApiDocumentSchema = z
  .record(z.string(), z.unknown())
  .describe("This OpenAPI 3.1 document (generated from the same zod schemas that validate requests).");

export const metaPaths: ResourceSpec = {
  tag: "Meta",
  description: "The machine-readable description of this API.",
  endpoints: [
    {
      method: "GET",
      path: "/openapi.json",
      operationId: "getOpenApiDocument",
      summary: "Get the OpenAPI document",
      description:
        "The OpenAPI 3.1 document of this API. Public: no key, no session and no `service-api-version` " +
        "header needed; cacheable for five minutes.",
      auth: "none",
      requireVersion: false,
      responses: [
        {
          status: 200,
          description: "The OpenAPI 3.1 document.",
          schema: named("OpenApiDocument", openApiDocumentSchema),
          headers: { "Cache-Control": "public, max-age=300" },
        },
      ],
    },
  ],
};

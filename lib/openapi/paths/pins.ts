import { getPinsQuerySchema, listPinsResponseSchema, pinSchema } from "@/lib/schemas/pins";
import { named, type ResourceSpec } from "../types";

export const pinsPaths: ResourceSpec = {
  tag: "Pins",
  description: "Map pins dropped by the company's users, each with its pin type.",
  components: [named("Pin", pinSchema)],
  endpoints: [
    {
      method: "GET",
      path: "/pins",
      operationId: "listPins",
      summary: "List pins",
      description:
        "The company's pins, newest first (`created_at`, then `id`, descending), optionally of one pin type " +
        "or by one user. The map loads them in pages of 1000.",
      scopes: ["pins:read"],
      query: getPinsQuerySchema,
      responses: [
        {
          status: 200,
          description: "A page of pins.",
          schema: named("ListPinsResponse", listPinsResponseSchema),
        },
      ],
      example: { query: { limit: "1000" } },
    },
  ],
};

import { listPinTypesResponseSchema, pinTypeSchema } from "@/lib/schemas/pin-types";
import { named, type ResourceSpec } from "../types";

export const pinTypesPaths: ResourceSpec = {
  tag: "Pin types",
  description: "The kinds of map pins and their colors.",
  components: [named("PinType", pinTypeSchema)],
  endpoints: [
    {
      method: "GET",
      path: "/pin-types",
      operationId: "listPinTypes",
      summary: "List pin types",
      description: "Every pin type of the company, by `label` (then `id` descending). Not paginated.",
      scopes: ["pin_types:read"],
      responses: [
        {
          status: 200,
          description: "The company's pin types.",
          schema: named("ListPinTypesResponse", listPinTypesResponseSchema),
        },
      ],
    },
  ],
};

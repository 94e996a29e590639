import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { getLostReasons } from "@/lib/domain/pipeline/lost-reasons";
import { lostReasonsResponseSchema } from "@/lib/schemas/lost-reasons";

// GET /api/lost-reasons – the reasons a lead can be lost for, in the admin's order
export const GET = apiRoute({
  permission: "pipeline:read",
  handler: ({ ctx }) => getLostReasons({ ctx }),
  docs: {
    tag: "Pipeline",
    operationId: "getLostReasons",
    summary: "List the lost reasons",
    description:
      "The reasons the company's admin keeps for losing a lead, in order. A lead moved to a `lost` stage " +
      "records the chosen reason's label in `lost_reason` (`POST /leads`); any other text is stored as given.",
    responses: [
      {
        status: 200,
        description: "The reasons, in order.",
        schema: named("LostReasonsResponse", lostReasonsResponseSchema),
      },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { getLostReasons, replaceLostReasons } from "@/lib/domain/pipeline/lost-reasons";
import { lostReasonsResponseSchema, putLostReasonsBodySchema } from "@/lib/schemas/lost-reasons";

// GET /api/settings/lost-reasons – the lost reasons as the settings page edits them (admins)
export const GET = apiRoute({
  permission: "pipeline:manage",
  handler: ({ ctx }) => getLostReasons({ ctx }),
  docs: {
    tag: "Settings",
    operationId: "getLostReasonSettings",
    summary: "Get the lost reasons to edit",
    description: "The reasons in order, as `GET /lost-reasons` answers.",
    responses: [
      {
        status: 200,
        description: "The reasons, in order.",
        schema: named("LostReasonsResponse", lostReasonsResponseSchema),
      },
    ],
  },
});

// PUT /api/settings/lost-reasons – replace the whole ordered list of lost reasons
export const PUT = apiRoute({
  permission: "pipeline:manage",
  body: putLostReasonsBodySchema,
  handler: ({ ctx, body }) => replaceLostReasons({ ctx, input: body }),
  docs: {
    tag: "Settings",
    operationId: "replaceLostReasons",
    summary: "Replace the lost reasons",
    description: [
      "Replaces the whole ordered list at once. Give a reason's `id` to keep it (renamed or moved); a " +
        "reason without an id is new; an id that is not one of the company's reasons is a 400 naming it. " +
        "An empty list leaves the company without reasons.",
      "Labels are unique ignoring case. Leads already lost keep the label they were lost for, so a " +
        "reason can always be renamed or removed.",
    ].join("\n\n"),
    bodyName: "PutLostReasonsBody",
    responses: [
      {
        status: 200,
        description: "The reasons as saved.",
        schema: named("LostReasonsResponse", lostReasonsResponseSchema),
      },
    ],
    example: {
      body: {
        reasons: [{ label: "Price too high" }, { label: "Chose a competitor" }, { label: "No response" }],
      },
    },
  },
});

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, PUT");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPipeline, replacePipeline } from "@/lib/domain/pipeline/pipeline";
import { pipelineResponseSchema, putPipelineBodySchema } from "@/lib/schemas/pipeline";
import { named } from "@/lib/api/route-docs";

// GET /api/settings/pipeline – the pipeline as the settings page edits it (admins, dashboard only)
export const GET = apiRoute({
  permission: "pipeline:manage",
  handler: ({ ctx }) => getPipeline({ ctx }),
  docs: {
    tag: "Settings",
    operationId: "getPipelineSettings",
    summary: "Get the pipeline to edit",
    description: "The stages in order, as `GET /pipeline` answers.",
    responses: [
      {
        status: 200,
        description: "The stages, in order.",
        schema: named("PipelineResponse", pipelineResponseSchema),
      },
    ],
  },
});

// PUT /api/settings/pipeline – replace the whole ordered list of stages
export const PUT = apiRoute({
  permission: "pipeline:manage",
  body: putPipelineBodySchema,
  handler: ({ ctx, body }) => replacePipeline({ ctx, input: body }),
  docs: {
    tag: "Settings",
    operationId: "replacePipeline",
    summary: "Replace the pipeline",
    description: [
      "Replaces the whole ordered list of stages at once. Give a stage's `key` to keep it (renaming or " +
        "moving it keeps the leads in it); a stage without a key is new and gets one made from its label " +
        '("Site visit" → `site-visit`).',
      "Keys are lower-case slugs; keys and labels are unique ignoring case, and a label may not be another " +
        "stage's key; colors are `#rrggbb`; at least one stage is `open`. A stage left out that any lead " +
        "uses (archived leads too) is a 409 `STAGE_IN_USE` naming it, and nothing changes.",
    ].join("\n\n"),
    bodyName: "PutPipelineBody",
    responses: [
      {
        status: 200,
        description: "The pipeline as saved.",
        schema: named("PipelineResponse", pipelineResponseSchema),
      },
    ],
    errors: ["STAGE_IN_USE"],
    errorMessages: {
      STAGE_IN_USE:
        'The stage "Quoted" (quoted) is used by 12 leads: move those leads to another stage first',
    },
    example: {
      body: {
        stages: [
          { key: "new", label: "New", color: "#2563eb", kind: "open" },
          { label: "Site visit", color: "#0e7490", kind: "open" },
          { key: "quoted", label: "Quote sent", color: "#b45309", kind: "open" },
          { key: "won", label: "Won", color: "#15803d", kind: "won" },
          { key: "lost", label: "Lost", color: "#b91c1c", kind: "lost" },
        ],
      },
    },
  },
});

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, PUT");

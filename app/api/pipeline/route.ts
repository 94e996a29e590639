import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPipeline } from "@/lib/domain/pipeline/pipeline";
import { named } from "@/lib/api/route-docs";
import { DEFAULT_PIPELINE, pipelineResponseSchema } from "@/lib/schemas/pipeline";

// GET /api/pipeline – the company's lead pipeline: its stages in order (extensions.md E2)
export const GET = apiRoute({
  permission: "pipeline:read",
  handler: ({ ctx }) => getPipeline({ ctx }),
  docs: {
    tag: "Pipeline",
    operationId: "getPipeline",
    summary: "Get the pipeline",
    description:
      "The stages in order. A company that has not edited its pipeline has the default one: " +
      DEFAULT_PIPELINE.map((s) => `\`${s.key}\``).join(", ") +
      ". Keys stay when a stage is renamed or moved.",
    responses: [
      {
        status: 200,
        description: "The stages, in order.",
        schema: named("PipelineResponse", pipelineResponseSchema),
      },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

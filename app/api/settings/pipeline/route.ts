import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPipeline, replacePipeline } from "@/lib/domain/pipeline/pipeline";
import { putPipelineBodySchema } from "@/lib/schemas/pipeline";

// GET /api/settings/pipeline – the pipeline as the settings page edits it (admins, dashboard only)
export const GET = apiRoute({
  permission: "pipeline:manage",
  handler: ({ ctx }) => getPipeline({ ctx }),
});

// PUT /api/settings/pipeline – replace the whole ordered list of stages
export const PUT = apiRoute({
  permission: "pipeline:manage",
  body: putPipelineBodySchema,
  handler: ({ ctx, body }) => replacePipeline({ ctx, input: body }),
});

export const { POST, PATCH, DELETE } = methodsNotAllowed("GET, PUT");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPipeline, replacePipeline } from "@/lib/domain/pipeline/pipeline";
import { putPipelineBodySchema } from "@/lib/schemas/pipeline";

// GET /api/settings/pipeline – the pipeline as the settings page edits it (admins, dashboard only)
export const GET = apiRoute({
  auth: "session",
  roles: ["admin"],
  handler: ({ ctx }) => getPipeline({ ctx }),
});

// PUT /api/settings/pipeline – replace the whole ordered list of stages
export const PUT = apiRoute({
  auth: "session",
  roles: ["admin"],
  body: putPipelineBodySchema,
  handler: ({ ctx, body }) => replacePipeline({ ctx, input: body }),
});

export const { POST, PATCH, DELETE } = methodsNotAllowed("GET, PUT");

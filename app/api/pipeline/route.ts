import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPipeline } from "@/lib/domain/pipeline/pipeline";

// GET /api/pipeline – the company's lead pipeline: its stages in order (extensions.md E2)
export const GET = apiRoute({
  permission: "pipeline:read",
  handler: ({ ctx }) => getPipeline({ ctx }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { getImport, removeImport } from "@/lib/domain/imports/imports";
import { importIdParamsSchema, importResponseSchema } from "@/lib/schemas/imports";

/** Deleting a million staged rows takes several statements, each within the statement timeout. */
const DELETE_DEADLINE_MS = 5 * 60_000;

// GET /api/imports/{id} – an import, with its run's progress and result
export const GET = apiRoute({
  permission: "imports:run",
  params: importIdParamsSchema,
  handler: ({ ctx, params }) => getImport(ctx, params.id),
  docs: {
    tag: "Imports",
    operationId: "getImport",
    summary: "Get an import",
    description:
      "The import with its mapping, its run's `progress` (rows done of the file's) and, once a dry run or " +
      "the import has ended, its `result`. Poll it while the status is `checking` or `importing`.",
    paramDescriptions: { id: "The import's id." },
    responses: [{ status: 200, description: "The import.", schema: named("Import", importResponseSchema) }],
    notFound: "Import",
    example: { params: { id: "imp_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

// DELETE /api/imports/{id} – the import and its staged rows
export const DELETE = apiRoute({
  permission: "imports:run",
  params: importIdParamsSchema,
  deadlineMs: DELETE_DEADLINE_MS,
  handler: async ({ ctx, params }) => {
    await removeImport(ctx, params.id);
    return new Response(null, { status: 204 });
  },
  docs: {
    tag: "Imports",
    operationId: "deleteImport",
    summary: "Delete an import",
    description:
      "Deletes the import, the file's rows kept for it and its problems; records it imported stay. " +
      "A 409 `CONFLICT` while it is being checked or imported: cancel it first.",
    paramDescriptions: { id: "The import's id." },
    responses: [{ status: 204, description: "Deleted; no body." }],
    notFound: "Import",
    errors: ["CONFLICT"],
    example: { params: { id: "imp_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { POST, PUT, PATCH, OPTIONS } = methodsNotAllowed("GET, DELETE");

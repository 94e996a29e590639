import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { cancelImport } from "@/lib/domain/imports/imports";
import { importIdParamsSchema, importResponseSchema } from "@/lib/schemas/imports";

/** The cancel waits a little for a run in this process to stop, so it usually answers `cancelled`. */
const CANCEL_DEADLINE_MS = 10_000;

// POST /api/imports/{id}/cancel – stop a dry run or an import; nothing is written
export const POST = apiRoute({
  permission: "imports:run",
  params: importIdParamsSchema,
  deadlineMs: CANCEL_DEADLINE_MS,
  handler: ({ ctx, params }) => cancelImport(ctx, params.id),
  docs: {
    tag: "Imports",
    operationId: "cancelImport",
    summary: "Cancel an import",
    description:
      "Stops the dry run or import between two batches of rows and rolls it back: nothing is written, the " +
      "status becomes `cancelled`. The answer is the import as it is then: poll it until it says " +
      "`cancelled` if it still says `checking` or `importing`. An import not running is answered as it is.",
    paramDescriptions: { id: "The import's id." },
    responses: [{ status: 200, description: "The import.", schema: named("Import", importResponseSchema) }],
    notFound: "Import",
    example: { params: { id: "imp_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { startImport } from "@/lib/domain/imports/imports";
import { importIdParamsSchema, importResponseSchema } from "@/lib/schemas/imports";

// POST /api/imports/{id}/start – import a checked file, all or nothing
export const POST = apiRoute({
  permission: "imports:run",
  params: importIdParamsSchema,
  handler: async ({ ctx, params }) => respond(await startImport(ctx, params.id), 202),
  docs: {
    tag: "Imports",
    operationId: "startImport",
    summary: "Start an import",
    description: [
      "Imports the file with the mapping of its last dry run, in the background (status `importing`, then " +
        "`done`), in one transaction: all rows or none. Each record created or changed gets its activity " +
        "entry (actor `import`) and its webhook events. A row refused by then (data changed since the dry " +
        "run) refuses the import: status `failed`, nothing written. Importing the same file again changes nothing.",
      "Only after a dry run that refused no row: otherwise 409 `IMPORT_NOT_CHECKED`. Another import of the " +
        "company being checked or imported: 409 `IMPORT_IN_PROGRESS`.",
    ].join("\n\n"),
    paramDescriptions: { id: "The import's id." },
    responses: [
      { status: 202, description: "The import is queued.", schema: named("Import", importResponseSchema) },
    ],
    notFound: "Import",
    errors: ["IMPORT_NOT_CHECKED", "IMPORT_IN_PROGRESS"],
    example: { params: { id: "imp_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

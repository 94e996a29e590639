import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { startDryRun } from "@/lib/domain/imports/imports";
import { dryRunImportBodySchema, importIdParamsSchema, importResponseSchema } from "@/lib/schemas/imports";

// POST /api/imports/{id}/dry-run – check the file with a mapping: what would be created, updated, refused
export const POST = apiRoute({
  permission: "imports:run",
  params: importIdParamsSchema,
  body: dryRunImportBodySchema,
  handler: async ({ ctx, params, body }) => respond(await startDryRun(ctx, params.id, body.mapping), 202),
  docs: {
    tag: "Imports",
    operationId: "dryRunImport",
    summary: "Check an import (dry run)",
    description: [
      "Saves the mapping and checks every row in the background exactly as the import would write it " +
        "(status `checking`, then `checked`), writing nothing: each row as one `POST /leads` (or " +
        "`/customers`) call in file order. Present cells overwrite, empty cells are kept, tags merge, a " +
        "stage is found by key or label, `assigned_to` must be a user of the company, an unknown `id` is " +
        "refused; a row matching a record an earlier row created updates it.",
      "The `result` counts rows that would create, update (and what they matched on: id, phone, email) " +
        "and be refused; `GET …/problems` lists the refused rows with their column and reason.",
      "A mapping with one entry per column, each a field of `fields` or null: a wrong one is a 400 naming " +
        "`mapping[i]`. Another import of the company being checked or imported: 409 `IMPORT_IN_PROGRESS`.",
    ].join("\n\n"),
    bodyName: "ImportDryRunBody",
    paramDescriptions: { id: "The import's id." },
    responses: [
      { status: 202, description: "The dry run is queued.", schema: named("Import", importResponseSchema) },
    ],
    notFound: "Import",
    errors: ["IMPORT_IN_PROGRESS"],
    example: {
      params: { id: "imp_01jq8m2x4kd7w3a9c5v6r8t0ye" },
      body: { mapping: ["name", "email", "phone", null, "tags"] },
    },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { listImportProblems } from "@/lib/domain/imports/imports";
import {
  IMPORT_PROBLEMS_KEPT,
  importIdParamsSchema,
  importProblemsQuerySchema,
  importProblemsResponseSchema,
} from "@/lib/schemas/imports";

// GET /api/imports/{id}/problems – the refused rows of the last run: row, column, reason
export const GET = apiRoute({
  permission: "imports:run",
  params: importIdParamsSchema,
  query: importProblemsQuerySchema,
  handler: ({ ctx, params, query }) => listImportProblems(ctx, params.id, query),
  docs: {
    tag: "Imports",
    operationId: "listImportProblems",
    summary: "List an import's problems",
    description:
      "Why the last dry run (or import) refused rows, by row: the spreadsheet row (the header is row 1), " +
      `the column and field when the problem is one cell's, and the reason. The first ${IMPORT_PROBLEMS_KEPT.toLocaleString("en-US")} ` +
      "are kept; the import's `problem_count` says how many there were.",
    paramDescriptions: { id: "The import's id." },
    responses: [
      {
        status: 200,
        description: "A page of problems.",
        schema: named("ImportProblems", importProblemsResponseSchema),
      },
    ],
    notFound: "Import",
    example: { params: { id: "imp_01jq8m2x4kd7w3a9c5v6r8t0ye" }, query: { page: "1", limit: "50" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

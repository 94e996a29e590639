import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { exportImportProblems } from "@/lib/domain/imports/imports";
import { importIdParamsSchema } from "@/lib/schemas/imports";

// GET /api/imports/{id}/problems/export – the refused rows as uploaded, with their problems
export const GET = apiRoute({
  permission: "imports:run",
  params: importIdParamsSchema,
  handler: async ({ ctx, params }) => {
    const file = await exportImportProblems(ctx, params.id);
    const name = file.fileName.replace(/["\\\r\n]/g, "_");
    return new Response(file.body, {
      status: 200,
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      },
    });
  },
  docs: {
    tag: "Imports",
    operationId: "exportImportProblems",
    summary: "Download the refused rows",
    description:
      "The rows the last run refused, as uploaded (the file's header row, then those rows in file order), " +
      'with two columns added: `row` (the spreadsheet row) and `problems` ("Email: not an email; Phone: …"). ' +
      "Fix them in a spreadsheet and upload them again. CSV, RFC 4180, CRLF, UTF-8.",
    paramDescriptions: { id: "The import's id." },
    responses: [
      {
        status: 200,
        description: "The CSV file.",
        contentType: "text/csv",
        csvColumns: [],
        csvMoreColumns: "The uploaded file's own columns, then `row` and `problems`.",
        headers: { "Content-Disposition": 'attachment; filename="<file>-refused-rows.csv".' },
      },
    ],
    notFound: "Import",
    example: { params: { id: "imp_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

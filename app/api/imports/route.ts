import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { ApiError } from "@/lib/api/errors";
import { named } from "@/lib/api/route-docs";
import { listImports, uploadImport } from "@/lib/domain/imports/imports";
import {
  createImportQuerySchema,
  IMPORT_LIST_SIZE,
  IMPORT_MAX_BYTES,
  importListSchema,
  importResponseSchema,
} from "@/lib/schemas/imports";

/** The media types an upload may declare (browsers send a .csv as any of these, or none). */
const CSV_MEDIA_TYPES = [
  "text/csv",
  "application/csv",
  "text/plain",
  "application/vnd.ms-excel",
  "application/octet-stream",
];
/** An upload of 1 GiB streams for minutes; each statement it runs stays within the statement timeout. */
const UPLOAD_DEADLINE_MS = 60 * 60_000;

/** 415 unless the body is declared as CSV (or not declared), 413 when it says it is over 1 GiB. */
function checkUpload(request: Request): void {
  const mediaType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mediaType && !CSV_MEDIA_TYPES.includes(mediaType)) {
    throw ApiError.coded(
      "UNSUPPORTED_MEDIA_TYPE",
      "Send the CSV file itself as the request body, with Content-Type: text/csv",
    );
  }
  if (Number(request.headers.get("content-length") ?? "0") > IMPORT_MAX_BYTES) {
    throw ApiError.coded("PAYLOAD_TOO_LARGE", "The file must not be larger than 1 GiB");
  }
}

// POST /api/imports – upload a CSV file of leads or customers (the body is the file, streamed)
export const POST = apiRoute({
  permission: "imports:run",
  inputPermissions: [
    {
      permission: "imports:leads",
      when: "`type=leads`",
      applies: ({ query }) => query.type === "leads",
      byQuery: true,
    },
    {
      permission: "imports:customers",
      when: "`type=customers`",
      applies: ({ query }) => query.type === "customers",
      byQuery: true,
    },
  ],
  query: createImportQuerySchema,
  deadlineMs: UPLOAD_DEADLINE_MS,
  background: true,
  handler: async ({ ctx, query, request }) => {
    checkUpload(request);
    const created = await uploadImport(ctx, {
      type: query.type,
      fileName: query.file_name,
      body: request.body,
    });
    return respond(created, 201);
  },
  docs: {
    tag: "Imports",
    operationId: "uploadImport",
    summary: "Upload a CSV file to import",
    description: [
      "The request body is the file itself (not a form), up to 1 GiB, streamed: UTF-8 (with or without a " +
        "byte order mark) or Windows-1252, separated by commas, semicolons or tabs (detected), with a header " +
        "row; quoted fields may hold separators and line breaks. Blank lines are skipped.",
      "The answer (201) is the import with status `uploaded`, the first rows as `sample` and a guessed " +
        '`mapping` of the columns to `fields` ("First Name", "E-mail", "Mobile", "Zip Code", ' +
        '"Lead Status"…; a column it cannot place is null). Nothing is written to leads or customers ' +
        "until the import is started after a dry run.",
      "A file that cannot be read as CSV (an unclosed quote, no header, a header with an empty or " +
        "repeated name, more values than headers…) is a 400 `INVALID_CSV` naming the row, and nothing is kept.",
    ].join("\n\n"),
    rawBody: {
      contentTypes: ["text/csv", "application/octet-stream"],
      description: "The CSV file's bytes.",
    },
    responses: [
      { status: 201, description: "The uploaded import.", schema: named("Import", importResponseSchema) },
    ],
    errors: ["INVALID_CSV", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
    example: { query: { type: "leads", file_name: "leads.csv" } },
  },
});

// GET /api/imports – the company's newest imports (the page finds a running one after a reload)
export const GET = apiRoute({
  permission: "imports:run",
  handler: ({ ctx }) => listImports(ctx),
  docs: {
    tag: "Imports",
    operationId: "listImports",
    summary: "List recent imports",
    description:
      `The company's ${IMPORT_LIST_SIZE} newest imports, newest first, of the types the caller may import ` +
      "(a key with only `leads:write` sees the lead imports). An import being checked or imported is among them.",
    responses: [{ status: 200, description: "The imports.", schema: named("ImportList", importListSchema) }],
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");

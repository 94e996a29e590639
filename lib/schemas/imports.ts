import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { paginationQuerySchema, paginationSchema } from "./common";

// CSV import (extensions.md E9): upload a file of leads or customers, map its columns, check it
// with a dry run, then import it all-or-nothing as a background job.

export const IMPORT_TYPE_VALUES = ["leads", "customers"] as const;
export const IMPORT_STATUS_VALUES = [
  "uploaded",
  "checking",
  "checked",
  "importing",
  "done",
  "failed",
  "cancelled",
] as const;
export type ImportStatusValue = (typeof IMPORT_STATUS_VALUES)[number];

/** The largest file an upload takes: 1 GiB. */
export const IMPORT_MAX_BYTES = 1024 ** 3;
/** Problems kept per run (import_problems); the count says how many there were. */
export const IMPORT_PROBLEMS_KEPT = 10_000;
/** Records of the file shown with the mapping. */
export const IMPORT_SAMPLE_ROWS = 5;
/** Imports GET /imports lists, newest first. */
export const IMPORT_LIST_SIZE = 20;

const importType = z
  .enum(IMPORT_TYPE_VALUES, { error: "must be leads or customers" })
  .describe("What each row of the file is: a lead or a customer.");

/** Query of POST /imports (the body is the file). */
export const createImportQuerySchema = z.object({
  type: importType,
  file_name: maxChars(nonBlank(z.string().trim(), "Give the file's name"), 255)
    .default("import.csv")
    .describe("The uploaded file's name, shown in the import's history."),
});
export type CreateImportQuery = z.output<typeof createImportQuerySchema>;

export const importIdParamsSchema = z.object({
  id: z.string().min(1).describe("The import's id (`imp_…`)."),
});
export type ImportIdParams = z.output<typeof importIdParamsSchema>;

/** Per column of the file: the field it fills, or null to ignore it. */
export const importMappingSchema = z
  .array(z.string().nullable(), { error: "must be an array of field names or null, one per column" })
  .describe("Per column of the file, in order: the field it fills, or null to ignore the column.");

/** Body of POST /imports/{id}/dry-run. */
export const dryRunImportBodySchema = z
  .object({ mapping: importMappingSchema })
  .describe("The mapping to check the file with; the import then uses it.");
export type DryRunImportBody = z.output<typeof dryRunImportBodySchema>;

export const importFieldSchema = z
  .object({ field: z.string(), label: z.string() })
  .describe("A field a column can fill.");

const count = (description: string) => z.number().int().min(0).describe(description);

export const importResultSchema = z
  .object({
    created: count("Rows that create a record."),
    updated: count("Rows that update a record (one stored before or created by an earlier row)."),
    refused: count("Rows refused: any refused row refuses the import."),
    matched_on: z
      .object({
        id: count("Updates matched by id."),
        phone: count("Updates matched by phone."),
        email: count("Updates matched by email."),
      })
      .describe("What the updates matched on (contract section 6)."),
  })
  .describe("What the last run did (the import) or would do (the dry run).");
export type ImportResult = z.output<typeof importResultSchema>;

export const importResponseSchema = z
  .object({
    id: z.string(),
    type: importType,
    file_name: z.string(),
    status: z
      .enum(IMPORT_STATUS_VALUES)
      .describe(
        "uploaded → (dry run) checking → checked → (start) importing → done; failed (see error) or cancelled.",
      ),
    encoding: z.enum(["utf-8", "windows-1252"]).describe("The file's text encoding, as detected."),
    delimiter: z.enum([",", ";", "\t"]).describe("The file's delimiter, as detected."),
    headers: z.array(z.string()).describe("The header row's column names."),
    sample: z.array(z.array(z.string())).describe(`The first ${IMPORT_SAMPLE_ROWS} records, as uploaded.`),
    row_count: count("Records in the file (the header not counted)."),
    mapping: importMappingSchema,
    fields: z.array(importFieldSchema).describe("What a column of this type of import can fill."),
    progress: z
      .object({ done: count("Rows done."), total: count("Rows to do.") })
      .describe("The running (or last) run's progress, in rows."),
    result: importResultSchema.nullable(),
    problem_count: count("Problems the last run found (GET …/problems lists the first 10,000)."),
    error: z.string().nullable().describe("Why the import failed; null unless status is failed."),
    created_by: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .describe("Who uploaded the file; null for an API key or the command line."),
    created_at: z.string(),
    started_at: z.string().nullable().describe("When the last run started."),
    finished_at: z.string().nullable().describe("When the last run ended."),
  })
  .describe("An uploaded CSV file and its dry run or import.");
export type ImportResponse = z.output<typeof importResponseSchema>;

export const importListSchema = z
  .object({ data: z.array(importResponseSchema) })
  .describe(`The company's ${IMPORT_LIST_SIZE} newest imports, newest first.`);
export type ImportList = z.output<typeof importListSchema>;

export const rowProblemSchema = z
  .object({
    row: z.number().int().describe("The spreadsheet row: the header is row 1, the first record row 2."),
    column: z.string().nullable().describe("The column's header, when the problem is one column's."),
    field: z.string().nullable().describe("The field the column fills, when known."),
    reason: z.string().describe("What is wrong, e.g. “not an email”."),
  })
  .describe("Why a row is refused.");
export type RowProblemResponse = z.output<typeof rowProblemSchema>;

export const importProblemsQuerySchema = paginationQuerySchema;
export type ImportProblemsQuery = z.output<typeof importProblemsQuerySchema>;

export const importProblemsResponseSchema = z
  .object({ data: z.array(rowProblemSchema).describe("By row."), pagination: paginationSchema })
  .describe("A page of the last run's problems.");
export type ImportProblemsResponse = z.output<typeof importProblemsResponseSchema>;

import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, tenantKey, updatedAt } from "./columns";

/** What a CSV import writes (extensions.md E9). */
export const IMPORT_TYPES = ["leads", "customers"] as const;
export type ImportRecordType = (typeof IMPORT_TYPES)[number];

/**
 * An import's life: `uploaded` → (dry run) `checking` → `checked` → (start) `importing` → `done`;
 * `failed` (error set) or `cancelled` from a run.
 */
export const IMPORT_STATUSES = [
  "uploaded",
  "checking",
  "checked",
  "importing",
  "done",
  "failed",
  "cancelled",
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** What a run counted: the dry run's counts are exactly the import's. */
export interface ImportResultCounts {
  created: number;
  updated: number;
  refused: number;
  matched_on: { id: number; phone: number; email: number };
}

const list = (values: readonly string[]) => `(${values.map((v) => `'${v}'`).join(", ")})`;

/** An uploaded CSV file and its runs (the staged records are in import_rows). */
export const imports = pgTable(
  "imports",
  {
    ...tenantKey(),
    type: text("type").$type<ImportRecordType>().notNull(),
    fileName: text("file_name").notNull(),
    status: text("status").$type<ImportStatus>().notNull().default("uploaded"),
    encoding: text("encoding").notNull(),
    delimiter: text("delimiter").notNull(),
    headers: text("headers").array().notNull(),
    rowCount: integer("row_count").notNull().default(0),
    /** Per column: the field it fills, or null (ignored). The last dry run's once checked. */
    mapping: jsonb("mapping").$type<(string | null)[]>().notNull(),
    /** The user who uploaded; null for the CLI or an API key. */
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull().default(0),
    result: jsonb("result").$type<ImportResultCounts>(),
    /** Problems the last run found (import_problems keeps the first 10,000). */
    problemCount: integer("problem_count").notNull().default(0),
    error: text("error"),
    cancelRequested: boolean("cancel_requested").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check("imports_type_check", sql`${t.type} in ${sql.raw(list(IMPORT_TYPES))}`),
    check("imports_status_check", sql`${t.status} in ${sql.raw(list(IMPORT_STATUSES))}`),
    // The company's newest imports (GET /imports) and the prune of old ones.
    index("imports_created_idx").on(t.companyId, t.createdAt.desc(), t.id.desc()),
  ],
);

/** The uploaded file's records, by spreadsheet row (the header is row 1). */
export const importRows = pgTable(
  "import_rows",
  {
    companyId: text("company_id").notNull(),
    importId: text("import_id").notNull(),
    row: integer("row").notNull(),
    values: text("values").array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.importId, t.row] }),
    foreignKey({
      columns: [t.companyId, t.importId],
      foreignColumns: [imports.companyId, imports.id],
    }).onDelete("cascade"),
  ],
);

/** The last run's problems: a row refused, with the column and field when known. */
export const importProblems = pgTable(
  "import_problems",
  {
    companyId: text("company_id").notNull(),
    importId: text("import_id").notNull(),
    /** The problem's place in the run's list (by row). */
    seq: integer("seq").notNull(),
    row: integer("row").notNull(),
    column: text("column"),
    field: text("field"),
    reason: text("reason").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.importId, t.seq] }),
    foreignKey({
      columns: [t.companyId, t.importId],
      foreignColumns: [imports.companyId, imports.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Identities a running import will create, committed before its write transaction: a
 * create-or-update call with a claimed phone or email waits for the import, then matches again,
 * so the same identity never creates two records.
 */
export const importClaims = pgTable(
  "import_claims",
  {
    companyId: text("company_id").notNull(),
    /** The table the identity belongs to: leads or customers. */
    recordType: text("record_type").$type<ImportRecordType>().notNull(),
    /** `phone` or `email`. */
    kind: text("kind").notNull(),
    /** The normalized phone or email. */
    value: text("value").notNull(),
    importId: text("import_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.recordType, t.kind, t.value] }),
    foreignKey({
      columns: [t.companyId, t.importId],
      foreignColumns: [imports.companyId, imports.id],
    }).onDelete("cascade"),
    index("import_claims_import_idx").on(t.companyId, t.importId),
  ],
);

// Placeholder of the contract's ImportResponse until lib/schemas/imports.ts lands.
export type ImportType = "leads" | "customers";
export type ImportMapping = (string | null)[];
export type ImportStatus =
  "uploaded" | "checking" | "checked" | "importing" | "done" | "failed" | "cancelled";
export interface RowProblem {
  row: number;
  column: string | null;
  field: string | null;
  reason: string;
}
export interface ImportResponse {
  id: string;
  type: ImportType;
  file_name: string;
  status: ImportStatus;
  encoding: string;
  delimiter: string;
  headers: string[];
  sample: string[][];
  row_count: number;
  mapping: ImportMapping;
  fields: { field: string; label: string }[];
  progress: { done: number; total: number };
  result: null | {
    created: number;
    updated: number;
    refused: number;
    matched_on: { id: number; phone: number; email: number };
  };
  error: string | null;
  created_by: { id: string; name: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

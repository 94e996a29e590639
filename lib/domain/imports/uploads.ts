import "server-only";
import type { Db } from "@/lib/db/client";
import type { ImportRecordType } from "@/lib/db/schema";
import type { ImportResponse } from "@/lib/schemas/imports";

export interface CreateImportInput {
  companyId: string;
  type: ImportRecordType;
  fileName: string;
  source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;
  /** The uploading user; null for the CLI or an API key. */
  createdBy: string | null;
}

/** Streams a CSV into a new import (status uploaded, mapping guessed). */
export async function createImport(db: Db, input: CreateImportInput): Promise<ImportResponse> {
  void db;
  void input;
  throw new Error("not implemented yet");
}

/** Removes an import's staged rows and problems (the CLI calls it when done). */
export async function deleteImport(db: Db, companyId: string, importId: string): Promise<void> {
  void db;
  void companyId;
  void importId;
  throw new Error("not implemented yet");
}

import "server-only";
import { ConflictError, DomainError, ForbiddenError, NotFoundError } from "@/lib/domain/errors";

/**
 * A second run while one is checking or importing, or a create-or-update of a phone or email a
 * running import claimed that it waited for in vain (409 IMPORT_IN_PROGRESS).
 */
export class ImportInProgressError extends ConflictError {
  override name = "ImportInProgressError";
  constructor(
    readonly runningId: string | undefined,
    message = `Another import is running for this company${runningId ? ` (${runningId})` : ""}; try again when it ends`,
  ) {
    super(message);
  }
}

/** A start without a dry run that found nothing to refuse (409 IMPORT_NOT_CHECKED). */
export class ImportNotCheckedError extends ConflictError {
  override name = "ImportNotCheckedError";
}

/** The uploaded file is not a CSV file this import can read (400 INVALID_CSV). */
export class InvalidCsvError extends DomainError {
  override name = "InvalidCsvError";
  constructor(
    readonly row: number,
    readonly reason: string,
  ) {
    super(
      row > 0 ? `The file is not valid CSV: row ${row}: ${reason}` : `The file is not valid CSV: ${reason}`,
    );
  }
}

/** An upload over the size an import takes (413 PAYLOAD_TOO_LARGE). */
export class ImportTooLargeError extends DomainError {
  override name = "ImportTooLargeError";
}

/** A run stopped by its cancel (rolled back, status cancelled). */
export class ImportCancelledError extends DomainError {
  override name = "ImportCancelledError";
  constructor() {
    super("The import was cancelled");
  }
}

/** No such import for this company. */
export class NoSuchImportError extends NotFoundError {
  constructor() {
    super("Import");
  }
}

/** A key without the write scope of the import's records (403 INSUFFICIENT_SCOPE). */
export class ImportScopeError extends ForbiddenError {
  override name = "ImportScopeError";
}

import "server-only";
import type { FieldProblem } from "@/lib/domain/errors";

/**
 * Every error code of the API and its HTTP status: the one table used by the pipeline, the
 * tests and the OpenAPI document (contract section 2).
 */
export const ERROR_CODES = {
  AUTHENTICATION_REQUIRED: 401,
  INVALID_API_KEY: 401,
  RATE_LIMIT_EXCEEDED: 429,
  UNSUPPORTED_API_VERSION: 400,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  INVALID_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_ERROR: 400,
  CONFLICT: 409,
  STAGE_IN_USE: 409,
  PIN_TYPE_IN_USE: 409,
  LEAD_ALREADY_LINKED: 409,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  SERVICE_UNAVAILABLE: 503,
  INVALID_CREDENTIALS: 401,
  TOO_MANY_ATTEMPTS: 429,
  INVALID_CSV: 400,
  IMPORT_IN_PROGRESS: 409,
  IMPORT_NOT_CHECKED: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_DESCRIPTIONS: Record<ErrorCode | "RECORD_NOT_FOUND" | "INTERNAL", string> = {
  AUTHENTICATION_REQUIRED: "No x-api-key header and no dashboard session.",
  INVALID_API_KEY: "The API key is unknown, revoked or expired.",
  RATE_LIMIT_EXCEEDED: "The key's daily request limit is used up; it resets at 00:00 UTC.",
  UNSUPPORTED_API_VERSION: "The service-api-version header is missing or not 1.1.0.",
  INSUFFICIENT_SCOPE:
    "The key (or the user's role) lacks the scope the endpoint needs; the message names it.",
  FORBIDDEN:
    "The request is not allowed for this principal (session-only endpoint, cross-site request, role).",
  INVALID_JSON: "The body is not valid JSON, or not a JSON object.",
  UNSUPPORTED_MEDIA_TYPE: "A request body must be sent as Content-Type: application/json.",
  PAYLOAD_TOO_LARGE: "The body is larger than 1 MiB (a CSV upload: 1 GiB).",
  VALIDATION_ERROR: "A field or query value is invalid; details names every bad field.",
  CONFLICT: "The request conflicts with existing data.",
  STAGE_IN_USE:
    "Pipeline settings: a stage left out of the new pipeline is still used by leads; the message names it.",
  PIN_TYPE_IN_USE:
    "Pin type settings: a type left out of the new list is still used by pins or their visits; the message names it and its counts.",
  LEAD_ALREADY_LINKED:
    "Pins: the lead is linked to another user's pin (their credit); only an admin or a manager may move it.",
  NOT_FOUND: "No such path under /api.",
  METHOD_NOT_ALLOWED: "The path exists but not with this method; the Allow header lists the methods.",
  SERVICE_UNAVAILABLE:
    "The database is unreachable or did not answer in time, or the mail server did not take an email; retry later.",
  INVALID_CREDENTIALS: "Dashboard sign-in: the email and password do not match an active account.",
  TOO_MANY_ATTEMPTS:
    "Dashboard sign-in: too many failed attempts for this email; password reset: too many requests for this email or from this address. Retry-After says when to try again.",
  INVALID_CSV: "CSV import: the uploaded file cannot be read as CSV; the message names the row.",
  IMPORT_IN_PROGRESS:
    "CSV import: another import of the company is being checked or imported, or (a create-or-update) the running import claimed the call's phone or email and did not end in time; the message names it. Try again when it ends.",
  IMPORT_NOT_CHECKED:
    "CSV import: the import starts only after a dry run (with the current mapping) that refused no row.",
  RECORD_NOT_FOUND: "The id is unknown for this company (404 without error_code).",
  INTERNAL: "An unexpected server error (500 without error_code, message 'Internal server error').",
};

/** An error answered as-is: status, optional code, message, details and extra headers. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode | undefined,
    message: string,
    readonly details?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  static coded(
    code: ErrorCode,
    message: string,
    options?: { details?: FieldProblem[]; headers?: Record<string, string> },
  ) {
    return new ApiError(ERROR_CODES[code], code, message, options?.details, options?.headers);
  }

  toBody(): ErrorBody {
    return {
      status: "error",
      message: this.message,
      ...(this.errorCode ? { error_code: this.errorCode } : {}),
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export interface ErrorBody {
  status: "error";
  message: string;
  error_code?: string;
  details?: FieldProblem[];
}

export const INTERNAL_ERROR_MESSAGE = "Internal server error";

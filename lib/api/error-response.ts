import "server-only";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import {
  ConflictError,
  DeadlineExceededError,
  DomainError,
  ForbiddenError,
  fromDatabaseError,
  InvalidCredentialsError,
  NotFoundError,
  PinTypeInUseError,
  StageInUseError,
  TooManyAttemptsError,
  ValidationError,
} from "@/lib/domain/errors";
import { MailDeliveryError } from "@/lib/mail/mailer";
import {
  ImportInProgressError,
  ImportNotCheckedError,
  ImportScopeError,
  ImportTooLargeError,
  InvalidCsvError,
} from "@/lib/domain/imports/errors";
import { FieldScopeError, LeadAlreadyLinkedError } from "@/lib/domain/pins/errors";
import { ApiError, INTERNAL_ERROR_MESSAGE, type ErrorBody } from "./errors";
import { jsonResponse } from "./json";
import { logError } from "./log";
import { validationError } from "./validation";

/** Maps any error to its response. Unexpected errors are logged and answered without detail. */
export function errorResponse(error: unknown, requestId: string): Response {
  const apiError = toApiError(error);
  if (!apiError) logError(requestId, error);
  const final = apiError ?? new ApiError(500, undefined, INTERNAL_ERROR_MESSAGE);
  const body: ErrorBody = final.toBody();
  return jsonResponse(body, final.status, {
    ...final.headers,
    ...(final.errorCode ? { "x-error-code": final.errorCode } : {}),
  });
}

/** Domain errors (which know nothing of HTTP) and database outages as API errors. */
function toApiError(thrown: unknown): ApiError | undefined {
  if (thrown instanceof ApiError) return thrown;
  // A database refusal the domain knows (a reference removed by a concurrent settings change).
  const error = thrown instanceof DomainError ? thrown : (fromDatabaseError(thrown) ?? thrown);
  if (error instanceof NotFoundError) return new ApiError(404, undefined, error.message);
  if (error instanceof ValidationError) return validationError(error.details);
  if (error instanceof FieldScopeError || error instanceof ImportScopeError) {
    return ApiError.coded("INSUFFICIENT_SCOPE", error.message);
  }
  if (error instanceof ForbiddenError) return ApiError.coded("FORBIDDEN", error.message);
  if (error instanceof StageInUseError) return ApiError.coded("STAGE_IN_USE", error.message);
  if (error instanceof PinTypeInUseError) return ApiError.coded("PIN_TYPE_IN_USE", error.message);
  if (error instanceof LeadAlreadyLinkedError) return ApiError.coded("LEAD_ALREADY_LINKED", error.message);
  if (error instanceof ImportInProgressError) return ApiError.coded("IMPORT_IN_PROGRESS", error.message);
  if (error instanceof ImportNotCheckedError) return ApiError.coded("IMPORT_NOT_CHECKED", error.message);
  if (error instanceof InvalidCsvError) return ApiError.coded("INVALID_CSV", error.message);
  if (error instanceof ImportTooLargeError) return ApiError.coded("PAYLOAD_TOO_LARGE", error.message);
  if (error instanceof ConflictError) return ApiError.coded("CONFLICT", error.message);
  if (error instanceof InvalidCredentialsError) return ApiError.coded("INVALID_CREDENTIALS", error.message);
  if (error instanceof TooManyAttemptsError) {
    return ApiError.coded("TOO_MANY_ATTEMPTS", error.message, {
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
  if (error instanceof MailDeliveryError) {
    return ApiError.coded(
      "SERVICE_UNAVAILABLE",
      "The email could not be sent: the mail server did not take it. Try again later",
      { headers: { "Retry-After": "60" } },
    );
  }
  if (error instanceof DeadlineExceededError || isDatabaseUnavailable(error)) {
    return ApiError.coded(
      "SERVICE_UNAVAILABLE",
      "The service is temporarily unavailable; please retry shortly",
      {
        headers: { "Retry-After": "5" },
      },
    );
  }
  return undefined;
}

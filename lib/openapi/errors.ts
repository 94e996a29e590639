import "server-only";
import { DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";
import { ERROR_CODES, ERROR_DESCRIPTIONS, type ErrorCode } from "@/lib/api/errors";
import { MAX_QUERY_LENGTH, VERSION_HEADER } from "@/lib/api/handler";
import { API_VERSION } from "@/lib/schemas/auth";
import type { EndpointSpec } from "./types";

/** An error as documented: a coded one, a record not found (404, no code) or the bare 500. */
export type DocumentedError = ErrorCode | "RECORD_NOT_FOUND" | "INTERNAL";

export const errorStatus = (error: DocumentedError): number =>
  error === "RECORD_NOT_FOUND" ? 404 : error === "INTERNAL" ? 500 : ERROR_CODES[error];

const ORDERED = new Set<DocumentedError>([
  "AUTHENTICATION_REQUIRED",
  "INVALID_API_KEY",
  "RATE_LIMIT_EXCEEDED",
  "UNSUPPORTED_API_VERSION",
  "INSUFFICIENT_SCOPE",
  "FORBIDDEN",
  "INVALID_JSON",
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "VALIDATION_ERROR",
  "RECORD_NOT_FOUND",
  "CONFLICT",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "SERVICE_UNAVAILABLE",
  "INTERNAL",
]);

/** The order in which the pipeline checks (contract section 2); the table of the guide follows it. */
export const CHECK_ORDER: readonly { step: string; errors: readonly DocumentedError[] }[] = [
  { step: "1", errors: ["AUTHENTICATION_REQUIRED"] },
  { step: "2", errors: ["INVALID_API_KEY"] },
  { step: "3", errors: ["RATE_LIMIT_EXCEEDED"] },
  { step: "4", errors: ["UNSUPPORTED_API_VERSION"] },
  { step: "5", errors: ["INSUFFICIENT_SCOPE", "FORBIDDEN"] },
  { step: "6", errors: ["INVALID_JSON", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"] },
  { step: "7", errors: ["VALIDATION_ERROR"] },
  { step: "8", errors: ["RECORD_NOT_FOUND", "CONFLICT"] },
  {
    step: "–",
    errors: [
      "NOT_FOUND",
      "METHOD_NOT_ALLOWED",
      "SERVICE_UNAVAILABLE",
      // Codes of single endpoints (e.g. sign-in), added to the table after this list was written.
      ...(Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => !ORDERED.has(code)),
      "INTERNAL",
    ],
  },
];

/** Every documented error, in check order. */
export const ALL_ERRORS: readonly DocumentedError[] = CHECK_ORDER.flatMap((row) => row.errors);

/**
 * The errors one endpoint can answer, derived from its declaration in the pipeline's order: credentials
 * and quota, version header, scope and role, body, validation, its own 404.
 */
export function endpointErrors(endpoint: EndpointSpec): DocumentedError[] {
  const errors = new Set<DocumentedError>();
  const auth = endpoint.auth ?? "both";
  if (auth !== "none") {
    // A session-only route still checks a key first when one is sent.
    errors.add("AUTHENTICATION_REQUIRED").add("INVALID_API_KEY").add("RATE_LIMIT_EXCEEDED");
  }
  if (endpoint.requireVersion !== false) errors.add("UNSUPPORTED_API_VERSION");
  if (auth !== "none" && (endpoint.scopes?.length ?? 0) > 0) errors.add("INSUFFICIENT_SCOPE");
  // Session-only routes, role checks, and writes by a session from another site.
  if (auth === "session" || endpoint.roles || (auth === "both" && endpoint.method !== "GET")) {
    errors.add("FORBIDDEN");
  }
  if (endpoint.body) errors.add("INVALID_JSON").add("UNSUPPORTED_MEDIA_TYPE").add("PAYLOAD_TOO_LARGE");
  // Every route parses its input, and refuses a query string over MAX_QUERY_LENGTH even without schemas.
  errors.add("VALIDATION_ERROR");
  if (endpoint.notFound) errors.add("RECORD_NOT_FOUND");
  for (const code of endpoint.errors ?? []) errors.add(code);
  if (auth !== "none") errors.add("SERVICE_UNAVAILABLE");
  errors.add("INTERNAL");
  return ALL_ERRORS.filter((error) => errors.has(error));
}

/** An example body of each error, as the pipeline words it. */
export function errorExample(error: DocumentedError, endpoint?: EndpointSpec): Record<string, unknown> {
  const own = endpoint?.errorMessages?.[error];
  if (own) {
    return error in ERROR_CODES
      ? { status: "error", message: own, error_code: error }
      : { status: "error", message: own };
  }
  const coded = (code: ErrorCode, message: string, extra: Record<string, unknown> = {}) => ({
    status: "error",
    message,
    error_code: code,
    ...extra,
  });
  switch (error) {
    case "AUTHENTICATION_REQUIRED":
      return coded(error, "Authentication required: send your API key in the x-api-key header");
    case "INVALID_API_KEY":
      return coded(error, "The API key is invalid, revoked or expired");
    case "RATE_LIMIT_EXCEEDED":
      return coded(
        error,
        `Daily limit of ${DEFAULT_DAILY_LIMIT} requests exceeded for this API key; it resets at 00:00 UTC`,
      );
    case "UNSUPPORTED_API_VERSION":
      return coded(error, `Missing ${VERSION_HEADER} header: send ${VERSION_HEADER}: ${API_VERSION}`);
    case "INSUFFICIENT_SCOPE": {
      const named = endpoint?.scopeNamed ?? endpoint?.scopes?.[0] ?? "leads:read";
      return coded(error, `Insufficient scope: this endpoint requires the ${named} scope`);
    }
    case "FORBIDDEN":
      return coded(
        error,
        endpoint?.roles
          ? `Only ${endpoint.roles.join(" or ")} users may do this`
          : endpoint?.auth === "session"
            ? "This endpoint is only available to signed-in dashboard users"
            : "Cross-site request refused",
      );
    case "INVALID_JSON":
      return coded(error, "The request body is not valid JSON");
    case "UNSUPPORTED_MEDIA_TYPE":
      return coded(error, "Send the request body as JSON with Content-Type: application/json");
    case "PAYLOAD_TOO_LARGE":
      return coded(error, "The request body must not be larger than 1 MiB (1048576 bytes)");
    case "VALIDATION_ERROR": {
      const [field, message] = validationExample(endpoint);
      return coded(error, `Invalid value for ${field}`, { details: [{ field, message }] });
    }
    case "CONFLICT":
      return coded(error, "The request conflicts with existing data");
    case "NOT_FOUND":
      return coded(error, "No endpoint at /api/unknown");
    case "METHOD_NOT_ALLOWED":
      return coded(error, "Method not allowed; use GET");
    case "SERVICE_UNAVAILABLE":
      return coded(error, "The service is temporarily unavailable; please retry shortly");
    case "RECORD_NOT_FOUND":
      return { status: "error", message: `${endpoint?.notFound ?? "Lead"} not found` };
    case "INTERNAL":
      return { status: "error", message: "Internal server error" };
    default:
      return coded(error, ERROR_DESCRIPTIONS[error]);
  }
}

/** A bad field this endpoint could really report: a page size, an email, the id, or its first input. */
function validationExample(endpoint?: EndpointSpec): [string, string] {
  const query = Object.keys(endpoint?.query?.shape ?? {});
  const body = endpoint?.body?.schema;
  const bodyFields = body && "shape" in body ? Object.keys(body.shape as object) : [];
  if (query.includes("limit")) return ["limit", "limit must be at most 1000"];
  if (bodyFields.includes("email")) return ["email", "must be a valid email address"];
  if (endpoint?.params) return ["id", "must not be empty"];
  const first = bodyFields[0] ?? query[0];
  if (first === undefined) {
    return ["query", `The query string must not be longer than ${MAX_QUERY_LENGTH} characters`];
  }
  return [first, "Invalid input"];
}

export const errorDescription = (error: DocumentedError) => ERROR_DESCRIPTIONS[error];

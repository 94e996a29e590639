import type { z } from "zod";
import type { ErrorCode } from "@/lib/api/errors";
import type { Scope } from "@/lib/auth/scopes";
import type { UserRole } from "@/lib/db/schema";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A zod schema with the name it gets under components.schemas. */
export interface NamedSchema {
  name: string;
  schema: z.ZodType;
}

export const named = (name: string, schema: z.ZodType): NamedSchema => ({ name, schema });

export interface SuccessResponse {
  status: number;
  description: string;
  /** JSON body (a component), or a CSV download when contentType is text/csv. */
  schema?: NamedSchema;
  contentType?: "application/json" | "text/csv";
  /** The header row of a CSV answer. */
  csvColumns?: readonly string[];
  /** Extra response headers (name → description), e.g. Content-Disposition of an export. */
  headers?: Record<string, string>;
}

/**
 * One documented verb. The fields mirror the route's apiRoute declaration (auth, scopes,
 * schemas); the coverage test checks them against the declaration itself, so they cannot drift.
 */
export interface EndpointSpec {
  method: HttpMethod;
  /** Relative to the server URL /api, with {name} for path parameters. */
  path: string;
  operationId: string;
  summary: string;
  /** Longer text: rules, defaults, order. Scopes and errors are added by the assembler. */
  description?: string;
  /** As in apiRoute: "both" (default) API key or session, "session" dashboard only, "none" public. */
  auth?: "both" | "session" | "none";
  /** Whether service-api-version is required (default true). */
  requireVersion?: boolean;
  scopes?: readonly Scope[];
  scopeNamed?: Scope;
  /** Scopes needed as well as one of `scopes`, each of them. */
  alsoScopes?: readonly Scope[];
  roles?: readonly UserRole[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: NamedSchema;
  /** Descriptions of the path parameters. */
  paramDescriptions?: Record<string, string>;
  responses: SuccessResponse[];
  /** The record name of a 404 "<name> not found" (get by id, upsert with an unknown id). */
  notFound?: string;
  /** Error codes beyond those the declaration implies (e.g. CONFLICT). */
  errors?: ErrorCode[];
  /** The messages this endpoint gives for some errors, for the examples (default: the pipeline's). */
  errorMessages?: Partial<Record<ErrorCode | "RECORD_NOT_FOUND" | "INTERNAL", string>>;
  /** A realistic request for the curl example. */
  example?: EndpointExample;
  /** Further requests worth showing (another curl sample each, and request-body examples). */
  moreExamples?: (EndpointExample & { name: string; summary: string })[];
}

export interface EndpointExample {
  query?: Record<string, string>;
  params?: Record<string, string>;
  body?: unknown;
}

export interface ResourceSpec {
  /** The tag (group) of the endpoints. */
  tag: string;
  description: string;
  /** Records shared by several responses, shown under components.schemas. */
  components?: NamedSchema[];
  endpoints: EndpointSpec[];
}

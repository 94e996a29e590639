import "server-only";
import type { z } from "zod";
import type { ErrorCode } from "./errors";

// What a route declaration adds for its OpenAPI entry. Types only (and `named`), so that the
// pipeline can carry them without loading the document builder in lib/openapi.

/** The groups of the reference; lib/openapi/resources.ts describes each. */
export type ApiTag =
  | "Authentication"
  | "Leads"
  | "Pipeline"
  | "Customers"
  | "Service plans"
  | "Serviced jobs"
  | "Pins"
  | "Pin types"
  | "Territories"
  | "Users"
  | "Reports"
  | "Imports"
  | "Dashboard session"
  | "Settings"
  | "Meta";

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
  /** Columns after csvColumns that depend on the data (e.g. one per pin type), in words. */
  csvMoreColumns?: string;
  /** Extra response headers (name → description), e.g. Content-Disposition of an export. */
  headers?: Record<string, string>;
}

export interface EndpointExample {
  query?: Record<string, string>;
  params?: Record<string, string>;
  body?: unknown;
}

/**
 * The documentation of one route verb: only what its declaration does not say. Auth, scopes,
 * roles and the query, body and path schemas are read from the declaration itself.
 */
export interface RouteDocs {
  tag: ApiTag;
  operationId: string;
  summary: string;
  /** Longer text: rules, defaults, order. Scopes and errors are added by the assembler. */
  description?: string;
  /** The component name of the declared body schema (required when the route has a body). */
  bodyName?: string;
  /** A request body that is not JSON (a file upload): its media types and what it is. */
  rawBody?: { contentTypes: readonly string[]; description: string };
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

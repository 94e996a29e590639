import "server-only";
import type { z } from "zod";
import type { NamedSchema, RouteDocs } from "@/lib/api/route-docs";
import type { Scope } from "@/lib/values/scopes";
import type { UserRole } from "@/lib/db/schema";

export { named } from "@/lib/api/route-docs";
export type { ApiTag, EndpointExample, NamedSchema, RouteDocs, SuccessResponse } from "@/lib/api/route-docs";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One served verb as the route index lists it: the verb, its path ({name} for parameters), its module. */
export type ApiOperation = readonly [method: HttpMethod, path: string, routeModule: object];

/** Who may call an endpoint, as its declaration says. */
export interface EndpointAccess {
  /** As in apiRoute: "both" (default) API key or session, "session" dashboard only, "none" public. */
  auth?: "both" | "session" | "none";
  /** Whether service-api-version is required (default true). */
  requireVersion?: boolean;
  scopes?: readonly Scope[];
  scopeNamed?: Scope;
  /** Scopes needed as well as one of `scopes`, each of them. */
  alsoScopes?: readonly Scope[];
  /** Scopes a `?dry_run=true` call needs as well, each of them (its answer shows the matched record). */
  dryRunScopes?: readonly Scope[];
  roles?: readonly UserRole[];
}

/** One documented verb: its route's declaration (access, schemas) with the route's docs. */
export interface EndpointSpec extends EndpointAccess, Omit<RouteDocs, "tag" | "bodyName"> {
  method: HttpMethod;
  /** Relative to the server URL /api, with {name} for path parameters. */
  path: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: NamedSchema;
}

export interface ResourceSpec {
  /** The tag (group) of the endpoints. */
  tag: string;
  description: string;
  /** Records shared by several responses, shown under components.schemas. */
  components?: NamedSchema[];
  endpoints: EndpointSpec[];
}

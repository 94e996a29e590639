import "server-only";
import type { DomainContext } from "@/lib/domain/context";
import { API_VERSION, type AuthTestResponse } from "@/lib/schemas/auth";

/** GET /auth/test: who the credentials belong to (contract section 8). */
export function describeCredentials({ ctx }: { ctx: Pick<DomainContext, "principal"> }): AuthTestResponse {
  const p = ctx.principal;
  return {
    status: "success",
    message: "Authentication successful",
    authenticated: true,
    company_id: p.companyId,
    user_id: p.kind === "session" ? p.userId : null,
    auth_method: p.kind,
    scopes: [...p.scopes],
    timestamp: new Date().toISOString(),
    service_api_version: API_VERSION,
  };
}

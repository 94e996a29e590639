import "server-only";
import { and, eq } from "drizzle-orm";
import type { Principal } from "@/lib/auth/principal";
import { can } from "@/lib/auth/permissions";
import type { DbOrTx } from "@/lib/db/client";
import { companies, users } from "@/lib/db/schema";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import type { SessionInfo } from "@/lib/schemas/session";

/**
 * The signed-in user, their company and what their role may do: GET /api/auth/session, and the
 * dashboard layout (which has the principal from the cookie, not a request context).
 */
export async function getSessionInfo({
  ctx,
}: {
  ctx: { db: DbOrTx; principal: Principal };
}): Promise<SessionInfo> {
  const { principal } = ctx;
  if (principal.kind !== "session") throw new ForbiddenError("Only a signed-in dashboard user has a session");
  const rows = await ctx.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      companyId: companies.id,
      companyName: companies.name,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, principal.companyId), eq(users.id, principal.userId)))
    .limit(1);
  const row = rows[0];
  if (!row) throw new NotFoundError("User");
  return {
    user: { id: row.id, name: row.name, email: row.email, role: row.role },
    company: { id: row.companyId, name: row.companyName },
    scopes: [...principal.scopes],
    can_manage_settings: can({ ...principal, role: row.role }, "settings:manage"),
  };
}

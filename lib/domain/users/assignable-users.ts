import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import type { ListAssignableUsersResponse } from "@/lib/schemas/lead-owners";

/**
 * GET /users: the company's active users, by name, as a lead's owner is chosen from them: id,
 * name and role only (emails stay with the admins' settings).
 */
export async function listAssignableUsers({
  ctx,
}: {
  ctx: { db: DbOrTx; companyId: string };
}): Promise<ListAssignableUsersResponse> {
  const rows = await ctx.db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(and(eq(users.companyId, ctx.companyId), eq(users.active, true)))
    .orderBy(asc(users.name), asc(users.id));
  return { status: "success", data: rows };
}

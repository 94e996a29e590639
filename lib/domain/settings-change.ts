import "server-only";
import { eq } from "drizzle-orm";
import { can } from "@/lib/auth/permissions";
import type { Tx } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { ForbiddenError } from "@/lib/domain/errors";

/** What each settings action edits, as its refusal names it. */
const WHAT = { "pipeline:manage": "the pipeline", "pin_types:manage": "the pin types" } as const;

/**
 * A change of the company's settings (pipeline, pin types): an admin's session only, in one
 * transaction under a lock on the company row, so two admins saving at once go one after the other.
 */
export async function adminSettingsChange<T>(
  ctx: DomainContext,
  action: keyof typeof WHAT,
  change: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (ctx.principal.kind !== "session" || !can(ctx.principal, action)) {
    throw new ForbiddenError(`Only admin users may edit ${WHAT[action]}`);
  }
  return ctx.db.transaction(async (tx) => {
    await tx
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.id, ctx.companyId))
      .for("update");
    return change(tx);
  });
}

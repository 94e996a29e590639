import "server-only";
import { and, desc, eq, gt, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DomainContext } from "@/lib/domain/context";
import { companies, users } from "@/lib/db/schema";
import { ForbiddenError } from "@/lib/domain/errors";
import type { OtherAccountList } from "@/lib/schemas/session";

/**
 * The other companies that added an account with the signed-in user's email, after the user's own
 * account: so that a rep learns another company added them (sign-in would offer it as a choice).
 *
 * It reads across tenants on purpose, and shows only a company's name and the date: nothing of that
 * account (role, name, state) or company. Emails are not verified, so whoever holds an account with
 * an email could be someone else; newer accounts never see the older ones, so an account made for
 * someone's email cannot list the companies that person already works for.
 */
export async function listOtherAccounts({ ctx }: { ctx: DomainContext }): Promise<OtherAccountList> {
  const { principal } = ctx;
  if (principal.kind !== "session")
    throw new ForbiddenError("Only a signed-in dashboard user has an account");
  // Compared in SQL: a JS Date would drop the microseconds that order two accounts made close together.
  const mine = alias(users, "mine");
  const rows = await ctx.db
    .select({ companyName: companies.name, addedAt: users.createdAt })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(
      mine,
      and(
        eq(mine.companyId, ctx.companyId),
        eq(mine.id, principal.userId),
        eq(mine.emailNormalized, users.emailNormalized),
        gt(users.createdAt, mine.createdAt),
      ),
    )
    .where(ne(users.companyId, ctx.companyId))
    .orderBy(desc(users.createdAt), companies.name);
  return { data: rows.map((r) => ({ company_name: r.companyName, added_at: r.addedAt.toISOString() })) };
}

import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { revokeUserSessions } from "@/lib/auth/sessions";
import { hashPassword } from "@/lib/auth/secrets";
import { users } from "@/lib/db/schema";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { normalizeEmail } from "@/lib/values/normalize";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { CreateUserBody, UserList, UserRecord } from "@/lib/schemas/settings";
import { requireSettingsAdmin } from "./settings-access";

const userColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  active: users.active,
  createdAt: users.createdAt,
};

type UserRow = {
  id: string;
  name: string;
  email: string;
  role: UserRecord["role"];
  active: boolean;
  createdAt: Date;
};

const toRecord = (row: UserRow): UserRecord => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  active: row.active,
  created_at: row.createdAt.toISOString(),
});

/** The company's users, by name (settings). */
export async function listUsers({ ctx }: { ctx: DomainContext }): Promise<UserList> {
  requireSettingsAdmin(ctx, "users:manage");
  const rows = await ctx.db
    .select(userColumns)
    .from(users)
    .where(eq(users.companyId, ctx.companyId))
    .orderBy(asc(users.name), asc(users.id));
  return { data: rows.map(toRecord) };
}

/**
 * Adds a user with an initial password. Emails are unique per company in any case; check and
 * insert share a lock on the company's users, so two concurrent adds cannot both succeed.
 */
export async function createUser({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: CreateUserBody;
}): Promise<UserRecord> {
  requireSettingsAdmin(ctx, "users:manage");
  const emailNormalized = normalizeEmail(input.email) ?? "";
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    // Serialize adds per company and email (the table has no unique index on email).
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`user-email:${ctx.companyId}:${emailNormalized}`}))`,
    );
    const existing = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, ctx.companyId), eq(users.emailNormalized, emailNormalized)))
      .limit(1);
    if (existing.length > 0) throw new ConflictError(`A user with the email ${input.email} already exists`);
    const [row] = await tx
      .insert(users)
      .values({
        companyId: ctx.companyId,
        id: newId(ID_PREFIX.user),
        name: input.name,
        email: input.email,
        emailNormalized,
        role: input.role,
        passwordHash,
        active: true,
      })
      .returning(userColumns);
    return toRecord(row!);
  });
}

/**
 * Deactivates or reactivates a user. Deactivation ends all of the user's sessions at once; an
 * admin cannot deactivate themself (the company would risk having no admin left).
 */
export async function setUserActive({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { id: string; active: boolean };
}): Promise<UserRecord> {
  const admin = requireSettingsAdmin(ctx, "users:manage");
  if (!input.active && input.id === admin.userId) {
    throw new ForbiddenError("You cannot deactivate your own account");
  }
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ active: input.active, updatedAt: new Date() })
      .where(and(eq(users.companyId, ctx.companyId), eq(users.id, input.id)))
      .returning(userColumns);
    if (!row) throw new NotFoundError("User");
    if (!input.active) await revokeUserSessions(tx, ctx.companyId, input.id);
    return toRecord(row);
  });
}

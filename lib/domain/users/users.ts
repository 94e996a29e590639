import "server-only";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { revokeUserSessions } from "@/lib/auth/sessions";
import { hashPassword } from "@/lib/auth/secrets";
import type { Tx } from "@/lib/db/client";
import { companies, users } from "@/lib/db/schema";
import { recordAudit } from "@/lib/domain/audit/audit";
import type { UserRole } from "@/lib/values/roles";
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
    const user = toRecord(row!);
    // The initial password is a secret: the entry says who was added, not how they sign in.
    await recordAudit(tx, ctx, {
      kind: "user.created",
      target: { type: "user", id: user.id },
      changes: [
        { field: "name", from: null, to: user.name },
        { field: "email", from: null, to: user.email },
        { field: "role", from: null, to: user.role },
      ],
    });
    return user;
  });
}

/**
 * Deactivates or reactivates a user. Deactivation ends all of the user's sessions at once; an
 * admin cannot deactivate themself, nor anyone the last active admin (409).
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
    const before = await lockedUser(tx, ctx.companyId, input.id);
    if (!input.active && before.active && before.role === "admin") {
      await refuseLosingLastAdmin(tx, ctx.companyId, before.id, "deactivate");
    }
    const [row] = await tx
      .update(users)
      .set({ active: input.active, updatedAt: new Date() })
      .where(and(eq(users.companyId, ctx.companyId), eq(users.id, input.id)))
      .returning(userColumns);
    if (!input.active) await revokeUserSessions(tx, ctx.companyId, input.id);
    if (before.active !== input.active) {
      await recordAudit(tx, ctx, {
        kind: input.active ? "user.reactivated" : "user.deactivated",
        target: { type: "user", id: input.id },
        changes: [{ field: "active", from: before.active, to: input.active }],
      });
    }
    return toRecord(row!);
  });
}

/**
 * POST /settings/users with `id` and `role`: changes the user's role. Sessions read the role from the
 * user's row at each request (lib/auth/sessions.ts), so the change applies at their next request.
 */
export async function changeUserRole({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { id: string; role: UserRole };
}): Promise<UserRecord> {
  requireSettingsAdmin(ctx, "users:manage");
  return ctx.db.transaction(async (tx) => {
    const before = await lockedUser(tx, ctx.companyId, input.id);
    if (before.role === input.role) return toRecord(before);
    if (before.role === "admin" && before.active) {
      await refuseLosingLastAdmin(tx, ctx.companyId, before.id, "demote");
    }
    const [row] = await tx
      .update(users)
      .set({ role: input.role, updatedAt: new Date() })
      .where(and(eq(users.companyId, ctx.companyId), eq(users.id, input.id)))
      .returning(userColumns);
    await recordAudit(tx, ctx, {
      kind: "user.role_changed",
      target: { type: "user", id: input.id },
      changes: [{ field: "role", from: before.role, to: input.role }],
    });
    return toRecord(row!);
  });
}

/**
 * The user, after a lock on the company row: every change that could leave the company without an
 * active admin takes it first, so two admins demoting each other at once go one after the other.
 */
async function lockedUser(tx: Tx, companyId: string, id: string): Promise<UserRow> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for("update");
  const [row] = await tx
    .select(userColumns)
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, id)));
  if (!row) throw new NotFoundError("User");
  return row;
}

/** 409 when `userId` is the company's only active admin. */
async function refuseLosingLastAdmin(
  tx: Tx,
  companyId: string,
  userId: string,
  verb: "demote" | "deactivate",
): Promise<void> {
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        eq(users.role, "admin"),
        eq(users.active, true),
        ne(users.id, userId),
      ),
    )
    .limit(1);
  if (!other) {
    throw new ConflictError(
      `You cannot ${verb} the company's last active admin: make another user an admin first`,
    );
  }
}

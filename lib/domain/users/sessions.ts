import "server-only";
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { SessionPrincipal } from "@/lib/auth/principal";
import { sessions, users } from "@/lib/db/schema";
import { recordAudit } from "@/lib/domain/audit/audit";
import type { DomainContext } from "@/lib/domain/context";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import type { SessionList } from "@/lib/schemas/sessions";
import { requireSettingsAdmin } from "./settings-access";

/** The caller's own session: these endpoints are about the signed-in user, never a key. */
function sessionOf(ctx: Pick<DomainContext, "principal">): SessionPrincipal {
  if (ctx.principal.kind !== "session") {
    throw new ForbiddenError("This endpoint is only available to signed-in dashboard users");
  }
  return ctx.principal;
}

/** The live sessions of a user: not ended, not expired. */
const live = (companyId: string, userId: string) =>
  and(
    eq(sessions.companyId, companyId),
    eq(sessions.userId, userId),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, sql`now()`),
  );

/** GET /auth/sessions: the user's live sessions, most recently used first. Never a token or its hash. */
export async function listOwnSessions({ ctx }: { ctx: DomainContext }): Promise<SessionList> {
  const me = sessionOf(ctx);
  const rows = await ctx.db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(live(me.companyId, me.userId))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  return {
    data: rows.map((row) => ({
      id: row.id,
      current: row.id === me.sessionId,
      created_at: row.createdAt.toISOString(),
      last_seen_at: row.lastSeenAt.toISOString(),
      ip: row.ip,
      user_agent: row.userAgent,
    })),
  };
}

/** DELETE /auth/sessions/{id}: ends one of the user's own sessions; anyone else's is not found. */
export async function endOwnSession({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { id: string };
}): Promise<{ current: boolean }> {
  const me = sessionOf(ctx);
  const ended = await ctx.db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(live(me.companyId, me.userId), eq(sessions.id, input.id)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw new NotFoundError("Session");
  return { current: input.id === me.sessionId };
}

/** DELETE /auth/sessions?others=true: ends every session of the user but this one. */
export async function endOtherSessions({ ctx }: { ctx: DomainContext }): Promise<{ ended: number }> {
  const me = sessionOf(ctx);
  const ended = await ctx.db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(live(me.companyId, me.userId), ne(sessions.id, me.sessionId)))
    .returning({ id: sessions.id });
  return { ended: ended.length };
}

/** POST /settings/users/{id}/sign-out: an admin ends every session of a user of the company. */
export async function signOutUserEverywhere({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { id: string };
}): Promise<void> {
  requireSettingsAdmin(ctx, "users:manage");
  await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, ctx.companyId), eq(users.id, input.id)));
    if (!user) throw new NotFoundError("User");
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(live(ctx.companyId, input.id))
      .returning({ id: sessions.id });
    await recordAudit(tx, ctx, {
      kind: "user.signed_out",
      target: { type: "user", id: input.id },
      changes: [{ field: "active_sessions", from: ended.length, to: 0 }],
    });
  });
}

import "server-only";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { ROLE_SCOPES } from "@/lib/auth/permissions";
import { generateToken, hashPassword, sha256Hex } from "@/lib/auth/secrets";
import { createSession, SESSION_MAX_MS } from "@/lib/auth/sessions";
import type { Db, DbOrTx } from "@/lib/db/client";
import { companies, invites, users } from "@/lib/db/schema";
import { recordAudit } from "@/lib/domain/audit/audit";
import type { DomainContext } from "@/lib/domain/context";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import { getSessionInfo } from "@/lib/domain/users/get-session-info";
import { requireSettingsAdmin } from "@/lib/domain/users/settings-access";
import { ID_PREFIX, newId } from "@/lib/ids";
import { appLink, isEmailConfigured, MAIL_REFUSED, sendEmail } from "@/lib/mail/mailer";
import { inviteEmail } from "@/lib/mail/templates";
import type {
  AcceptInviteBody,
  CreateInviteBody,
  CreatedInvite,
  InviteList,
  InviteRecord,
} from "@/lib/schemas/accounts";
import type { SessionInfo } from "@/lib/schemas/session";
import { normalizeEmail } from "@/lib/values/normalize";
import { ROLE_LABELS } from "@/lib/values/roles";

/** An invite link works for 7 days. */
export const INVITE_LIFETIME_MS = 7 * 24 * 3600 * 1000;

const inviteColumns = {
  id: invites.id,
  email: invites.email,
  role: invites.role,
  createdAt: invites.createdAt,
  createdBy: invites.createdBy,
  expiresAt: invites.expiresAt,
};
type InviteRow = {
  id: string;
  email: string;
  role: InviteRecord["role"];
  createdAt: Date;
  createdBy: string | null;
  expiresAt: Date;
};

const toRecord = (row: InviteRow, now = Date.now()): InviteRecord => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: row.expiresAt.getTime() > now ? "pending" : "expired",
  created_at: row.createdAt.toISOString(),
  created_by: row.createdBy,
  expires_at: row.expiresAt.toISOString(),
});

/** The lock that createUser takes too: an invite, an accept and an add of one email run one at a time. */
const lockCompanyEmail = (tx: DbOrTx, companyId: string, emailNormalized: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`user-email:${companyId}:${emailNormalized}`}))`);

async function userWithEmailExists(tx: DbOrTx, companyId: string, emailNormalized: string): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.emailNormalized, emailNormalized)))
    .limit(1);
  return rows.length > 0;
}

/** The company's invites neither accepted nor revoked, newest first (expired ones say so). */
export async function listInvites({ ctx }: { ctx: DomainContext }): Promise<InviteList> {
  requireSettingsAdmin(ctx, "users:manage");
  const rows = await ctx.db
    .select(inviteColumns)
    .from(invites)
    .where(and(eq(invites.companyId, ctx.companyId), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
    .orderBy(desc(invites.createdAt), desc(invites.id));
  return { data: rows.map((r) => toRecord(r)), email_configured: isEmailConfigured() };
}

/**
 * Invites an email with a role. A user of the company with that email already is a 409; an open
 * invite for it is replaced (its link stops working). With email configured the link is emailed
 * (if the mail server refuses, the invite is revoked and the error says so); without, it is answered once.
 */
export async function createInvite({
  ctx,
  input,
  requestOrigin,
}: {
  ctx: DomainContext;
  input: CreateInviteBody;
  requestOrigin: string;
}): Promise<CreatedInvite> {
  const admin = requireSettingsAdmin(ctx, "users:manage");
  const emailNormalized = normalizeEmail(input.email) ?? "";
  const token = generateToken();
  const row = await ctx.db.transaction(async (tx) => {
    await lockCompanyEmail(tx, ctx.companyId, emailNormalized);
    if (await userWithEmailExists(tx, ctx.companyId, emailNormalized)) {
      throw new ConflictError(`A user with the email ${input.email} already exists`);
    }
    await tx
      .update(invites)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(invites.companyId, ctx.companyId),
          eq(invites.emailNormalized, emailNormalized),
          isNull(invites.acceptedAt),
          isNull(invites.revokedAt),
        ),
      );
    const [inserted] = await tx
      .insert(invites)
      .values({
        companyId: ctx.companyId,
        id: newId(ID_PREFIX.invite),
        email: input.email,
        emailNormalized,
        role: input.role,
        tokenHash: sha256Hex(token),
        createdBy: admin.userId,
        expiresAt: new Date(Date.now() + INVITE_LIFETIME_MS),
      })
      .returning(inviteColumns);
    await recordAudit(tx, ctx, {
      kind: "invite.created",
      target: { type: "invite", id: inserted!.id },
      changes: [
        { field: "email", from: null, to: inserted!.email },
        { field: "role", from: null, to: inserted!.role },
      ],
    });
    return inserted!;
  });
  const url = appLink(`/invite/${token}`, requestOrigin);
  if (!isEmailConfigured()) return { ...toRecord(row), url };
  try {
    const [names] = await ctx.db
      .select({ companyName: companies.name, inviterName: users.name })
      .from(companies)
      .leftJoin(users, and(eq(users.companyId, companies.id), eq(users.id, admin.userId)))
      .where(eq(companies.id, ctx.companyId));
    await sendEmail(
      inviteEmail({
        to: input.email,
        companyName: names?.companyName ?? "your company",
        inviterName: names?.inviterName ?? null,
        roleLabel: ROLE_LABELS[input.role],
        url,
        expiresAt: row.expiresAt,
      }),
    );
  } catch (error) {
    // Nobody got the link: it must not stay usable, nor listed as if it had been sent. The log is
    // append-only, so it says the invite was withdrawn rather than forgetting it was made.
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(invites)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(invites.companyId, ctx.companyId), eq(invites.id, row.id)));
      await recordAudit(tx, ctx, {
        kind: "invite.withdrawn",
        target: { type: "invite", id: row.id },
        changes: [{ field: "reason", from: null, to: MAIL_REFUSED }],
      });
    });
    throw error;
  }
  return toRecord(row);
}

/** Revokes an open invite: its link stops working at once. Accepted, revoked or unknown: 404. */
export async function revokeInvite({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { id: string };
}): Promise<void> {
  requireSettingsAdmin(ctx, "users:manage");
  await ctx.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(invites)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(invites.companyId, ctx.companyId),
          eq(invites.id, input.id),
          isNull(invites.acceptedAt),
          isNull(invites.revokedAt),
        ),
      )
      .returning({ id: invites.id, email: invites.email, role: invites.role });
    if (!revoked) throw new NotFoundError("Invite");
    await recordAudit(tx, ctx, {
      kind: "invite.revoked",
      target: { type: "invite", id: revoked.id },
      changes: [
        { field: "email", from: revoked.email, to: null },
        { field: "role", from: revoked.role, to: null },
      ],
    });
  });
}

const tokenProblem = (message: string) => new ValidationError([{ field: "token", message }]);

/**
 * Accepts an invite: creates the user with the invite's email and role and the chosen name and
 * password, and starts their session. The invite's row is locked, so a link works once however
 * requests race; an unknown, used, revoked or expired link is a 400 naming `token`.
 */
export async function acceptInvite({
  db,
  input,
  userAgent,
  ip,
}: {
  db: Db;
  input: AcceptInviteBody;
  userAgent?: string | null;
  ip?: string | null;
}): Promise<{ token: string; maxAgeSeconds: number; session: SessionInfo }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [invite] = await tx
      .select({
        companyId: invites.companyId,
        id: invites.id,
        email: invites.email,
        emailNormalized: invites.emailNormalized,
        role: invites.role,
        expiresAt: invites.expiresAt,
        acceptedAt: invites.acceptedAt,
        revokedAt: invites.revokedAt,
      })
      .from(invites)
      .where(eq(invites.tokenHash, sha256Hex(input.token)))
      .for("update");
    if (!invite) throw tokenProblem("This invite link is not valid. Ask for a new invite.");
    if (invite.acceptedAt) throw tokenProblem("This invite has already been used. Sign in instead.");
    if (invite.revokedAt) throw tokenProblem("This invite was withdrawn. Ask for a new invite.");
    if (invite.expiresAt.getTime() <= Date.now()) {
      throw tokenProblem("This invite has expired. Ask for a new invite.");
    }
    await lockCompanyEmail(tx, invite.companyId, invite.emailNormalized);
    if (await userWithEmailExists(tx, invite.companyId, invite.emailNormalized)) {
      throw new ConflictError(`A user with the email ${invite.email} already exists: sign in instead`);
    }
    const userId = newId(ID_PREFIX.user);
    await tx.insert(users).values({
      companyId: invite.companyId,
      id: userId,
      name: input.name,
      email: invite.email,
      emailNormalized: invite.emailNormalized,
      role: invite.role,
      passwordHash,
      active: true,
    });
    await tx
      .update(invites)
      .set({ acceptedAt: sql`now()`, acceptedUserId: userId })
      .where(and(eq(invites.companyId, invite.companyId), eq(invites.id, invite.id)));
    // The new user is the actor: they accepted, and no session existed yet.
    await recordAudit(
      tx,
      { companyId: invite.companyId, ip, actor: { userId } },
      {
        kind: "invite.accepted",
        target: { type: "invite", id: invite.id },
        changes: [
          { field: "user_id", from: null, to: userId },
          { field: "email", from: null, to: invite.email },
          { field: "role", from: null, to: invite.role },
        ],
      },
    );
    const user = { companyId: invite.companyId, id: userId };
    const { token, sessionId } = await createSession(tx, user, userAgent);
    const session = await getSessionInfo({
      ctx: {
        db: tx,
        principal: {
          kind: "session",
          companyId: invite.companyId,
          userId,
          sessionId,
          role: invite.role,
          scopes: [...ROLE_SCOPES[invite.role]],
        },
      },
    });
    return { token, maxAgeSeconds: Math.floor(SESSION_MAX_MS / 1000), session };
  });
}

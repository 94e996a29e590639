import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { webhookEndpoints } from "@/lib/db/schema";
import { changesBetween, recordAudit, recordAuditIfChanged } from "@/lib/domain/audit/audit";
import type { DomainContext } from "@/lib/domain/context";
import { NotFoundError } from "@/lib/domain/errors";
import { ID_PREFIX, newId } from "@/lib/ids";
import { iso } from "@/lib/schemas/common";
import type {
  CreatedWebhookEndpoint,
  RotatedWebhookSecret,
  UpsertWebhookBody,
  WebhookEndpoint,
  WebhookEndpointList,
} from "@/lib/schemas/webhooks";
import { checkWebhookUrl } from "./address-policy";

/*
 * Webhook endpoints in settings (extensions.md E8). The secret is kept in clear (it signs each
 * delivery) and is answered only by the create and the rotation.
 */

type Ctx = Pick<DomainContext, "db" | "companyId" | "principal" | "ip">;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** What the audit log shows of an endpoint: never its secrets. */
const AUDITED = ["url", "events", "description", "enabled"] as const;
const audited = (row: EndpointRow) => ({
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
});

/** How long the previous secret still signs after a rotation. */
export const SECRET_ROTATION_HOURS = 24;

/** A new signing secret: `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export function toWebhookEndpoint(row: EndpointRow, now = new Date()): WebhookEndpoint {
  const rotating = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    failing_since: iso(row.failingSince),
    created_at: iso(row.createdAt)!,
    updated_at: iso(row.updatedAt)!,
    secret_rotating_until: rotating ? iso(row.previousSecretExpiresAt) : null,
  };
}

const ofCompany = (ctx: Ctx, id: string) =>
  and(eq(webhookEndpoints.companyId, ctx.companyId), eq(webhookEndpoints.id, id));

/** GET /settings/webhooks: the company's endpoints, oldest first. */
export async function listWebhookEndpoints({ ctx }: { ctx: Ctx }): Promise<WebhookEndpointList> {
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.companyId, ctx.companyId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return { data: rows.map((row) => toWebhookEndpoint(row)) };
}

/**
 * POST /settings/webhooks: creates an endpoint (its secret answered once), or with `id` changes
 * its URL, events, description or enabled. A URL is checked against the address policy.
 */
export async function upsertWebhookEndpoint({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: UpsertWebhookBody;
}): Promise<
  { created: true; endpoint: CreatedWebhookEndpoint } | { created: false; endpoint: WebhookEndpoint }
> {
  const url = input.url === undefined ? undefined : await checkWebhookUrl(input.url);
  if (input.id === undefined) {
    const secret = newWebhookSecret();
    const row = await ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(webhookEndpoints)
        .values({
          companyId: ctx.companyId,
          id: newId(ID_PREFIX.webhookEndpoint),
          url: url!,
          events: input.events!,
          description: input.description ?? "",
          enabled: input.enabled ?? true,
          secret,
        })
        .returning();
      await recordAudit(tx, ctx, {
        kind: "webhook.created",
        target: { type: "webhook_endpoint", id: inserted!.id },
        changes: changesBetween(null, audited(inserted!), AUDITED),
      });
      return inserted!;
    });
    return { created: true, endpoint: { ...toWebhookEndpoint(row), secret } };
  }
  const set: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: new Date() };
  if (url !== undefined) set.url = url;
  if (input.events !== undefined) set.events = input.events;
  if (input.description !== undefined) set.description = input.description;
  if (input.enabled !== undefined) {
    set.enabled = input.enabled;
    // Enabled again by an admin: the system's reason and the failure streak are over.
    if (input.enabled) Object.assign(set, { disabledReason: null, failingSince: null });
  }
  const id = input.id;
  const row = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(webhookEndpoints).where(ofCompany(ctx, id)).for("update");
    if (!before) throw new NotFoundError("Webhook endpoint");
    const [after] = await tx.update(webhookEndpoints).set(set).where(ofCompany(ctx, id)).returning();
    await recordAuditIfChanged(tx, ctx, {
      kind: "webhook.updated",
      target: { type: "webhook_endpoint", id },
      changes: changesBetween(audited(before), audited(after!), AUDITED),
    });
    return after!;
  });
  return { created: false, endpoint: toWebhookEndpoint(row) };
}

/** DELETE /settings/webhooks/{id}: the endpoint and its deliveries. */
export async function deleteWebhookEndpoint({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx.delete(webhookEndpoints).where(ofCompany(ctx, id)).returning();
    if (!deleted) throw new NotFoundError("Webhook endpoint");
    await recordAudit(tx, ctx, {
      kind: "webhook.deleted",
      target: { type: "webhook_endpoint", id },
      changes: changesBetween(audited(deleted), null, AUDITED),
    });
  });
}

/**
 * POST /settings/webhooks/{id}/rotate-secret: a new secret, answered once; the one it replaces
 * still signs for SECRET_ROTATION_HOURS, so receivers can switch without missing an event.
 */
export async function rotateWebhookSecret({
  ctx,
  id,
}: {
  ctx: Ctx;
  id: string;
}): Promise<RotatedWebhookSecret> {
  const secret = newWebhookSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const [rotated] = await tx
      .update(webhookEndpoints)
      .set({
        previousSecret: sql`${webhookEndpoints.secret}`,
        previousSecretExpiresAt: sql`now() + make_interval(hours => ${SECRET_ROTATION_HOURS})`,
        secret,
        updatedAt: sql`now()`,
      })
      .where(ofCompany(ctx, id))
      .returning({ expiresAt: webhookEndpoints.previousSecretExpiresAt });
    if (!rotated) throw new NotFoundError("Webhook endpoint");
    // That it was rotated, and until when the old one signs; never a secret.
    await recordAudit(tx, ctx, {
      kind: "webhook.secret_rotated",
      target: { type: "webhook_endpoint", id },
      changes: [{ field: "previous_signs_until", from: null, to: iso(rotated.expiresAt) }],
    });
    return rotated;
  });
  return { secret, previous_secret_expires_at: iso(row.expiresAt)! };
}

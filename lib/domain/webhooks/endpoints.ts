import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { webhookEndpoints } from "@/lib/db/schema";
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

type Ctx = Pick<DomainContext, "db" | "companyId">;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

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
    const [row] = await ctx.db
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
    return { created: true, endpoint: { ...toWebhookEndpoint(row!), secret } };
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
  const [row] = await ctx.db.update(webhookEndpoints).set(set).where(ofCompany(ctx, input.id)).returning();
  if (!row) throw new NotFoundError("Webhook endpoint");
  return { created: false, endpoint: toWebhookEndpoint(row) };
}

/** DELETE /settings/webhooks/{id}: the endpoint and its deliveries. */
export async function deleteWebhookEndpoint({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  const deleted = await ctx.db
    .delete(webhookEndpoints)
    .where(ofCompany(ctx, id))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw new NotFoundError("Webhook endpoint");
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
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt: sql`now() + make_interval(hours => ${SECRET_ROTATION_HOURS})`,
      secret,
      updatedAt: sql`now()`,
    })
    .where(ofCompany(ctx, id))
    .returning({ expiresAt: webhookEndpoints.previousSecretExpiresAt });
  if (!row) throw new NotFoundError("Webhook endpoint");
  return { secret, previous_secret_expires_at: iso(row.expiresAt)! };
}

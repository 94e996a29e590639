import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { WEBHOOK_EVENT_TYPES } from "@/lib/values/enums";

// Webhook endpoints (extensions.md E8): settings endpoints, admin sessions only. An endpoint's
// answer never carries its signing secret, except the create's and the rotation's, once.

/** The longest endpoint URL accepted. */
export const WEBHOOK_URL_MAX = 2000;
/** The longest description. */
export const WEBHOOK_DESCRIPTION_MAX = 500;

const eventsSchema = z
  .array(
    z.enum(WEBHOOK_EVENT_TYPES, { error: `Unknown event type; use ${WEBHOOK_EVENT_TYPES.join(", ")}` }),
    {
      error: "Pick at least one event type",
    },
  )
  .min(1, "Pick at least one event type")
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)))
  .describe("The event types sent to this endpoint.");

export const upsertWebhookBodySchema = z
  .object({
    id: maxChars(nonBlank(z.string().trim()), 100)
      .optional()
      .describe("The endpoint to update; without it a new endpoint is created."),
    url: maxChars(nonBlank(z.string({ error: "Enter the URL" }).trim(), "Enter the URL"), WEBHOOK_URL_MAX)
      .optional()
      .describe(
        "Where events are POSTed: http or https, no user name or password, and (unless " +
          "WEBHOOKS_ALLOW_PRIVATE=true) a host that resolves only to public addresses. Required to create.",
      ),
    events: eventsSchema.optional(),
    description: maxChars(z.string().trim(), WEBHOOK_DESCRIPTION_MAX)
      .optional()
      .describe("What the endpoint is for, e.g. “Accounting sync”."),
    enabled: z.boolean().optional().describe("false stops sending to the endpoint; true sends again."),
  })
  .superRefine((body, ctx) => {
    if (body.id !== undefined) return;
    if (body.url === undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "Enter the URL" });
    if (body.events === undefined) {
      ctx.addIssue({ code: "custom", path: ["events"], message: "Pick at least one event type" });
    }
  })
  .describe("A new webhook endpoint, or with `id` a change of one.");
export type UpsertWebhookBody = z.output<typeof upsertWebhookBodySchema>;

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .describe("Why the system disabled the endpoint (e.g. failing for 5 days); null otherwise."),
    failing_since: z.string().nullable().describe("Since when every delivery has failed; null when healthy."),
    created_at: z.string(),
    updated_at: z.string(),
    secret_rotating_until: z
      .string()
      .nullable()
      .describe("Until when the previous secret also signs, after a rotation; null otherwise."),
  })
  .describe("A webhook endpoint as settings show it (never its secret).");
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z
  .object({ data: z.array(webhookEndpointSchema) })
  .describe("The company's webhook endpoints, oldest first.");
export type WebhookEndpointList = z.output<typeof webhookEndpointListSchema>;

const secretSchema = z
  .string()
  .describe("The signing secret (`whsec_` + base64), shown this once. Keep it to verify signatures.");

export const createdWebhookEndpointSchema = webhookEndpointSchema
  .extend({ secret: secretSchema })
  .describe("The new endpoint, with its signing secret this once.");
export type CreatedWebhookEndpoint = z.output<typeof createdWebhookEndpointSchema>;

export const rotatedWebhookSecretSchema = z
  .object({
    secret: secretSchema,
    previous_secret_expires_at: z
      .string()
      .describe("Until when the previous secret also signs (24 hours), so receivers can switch."),
  })
  .describe("The endpoint's new signing secret.");
export type RotatedWebhookSecret = z.output<typeof rotatedWebhookSecretSchema>;

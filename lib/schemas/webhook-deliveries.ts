import { z } from "zod";
import { paginationQuerySchema, paginationSchema } from "./common";
import { maxChars, nonBlank } from "./text";
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_OUTBOX_TYPES } from "@/lib/values/enums";

// The deliveries log of a webhook endpoint, its resend and its test event (extensions.md E8).

const id = (what: string) => maxChars(nonBlank(z.string().trim()), 100).describe(what);

export const endpointParamsSchema = z.object({ id: id("The webhook endpoint's id.") });
export const deliveryParamsSchema = z.object({
  id: id("The webhook endpoint's id."),
  delivery_id: id("The delivery's id."),
});

export const deliveriesQuerySchema = paginationQuerySchema;

export const webhookDeliverySchema = z
  .object({
    id: z.string().describe("The delivery's id."),
    event_id: z.string().describe("The event's id: the `webhook-id` header the endpoint received."),
    type: z.enum(WEBHOOK_OUTBOX_TYPES).describe("The event type."),
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES)
      .describe(
        "`pending` (queued), `succeeded`, `failed` (will be retried at `next_attempt_at`) or `dead` (given up).",
      ),
    response_code: z.number().int().nullable().describe("The endpoint's HTTP status at the last attempt."),
    duration_ms: z.number().int().nullable().describe("How long the last attempt took."),
    attempts: z.number().int().describe("Attempts so far."),
    next_attempt_at: z.iso.datetime().nullable().describe("When the next attempt is due; null when none is."),
    error: z.string().nullable().describe("Why the last attempt failed (never a secret)."),
    created_at: z.iso.datetime(),
    last_attempt_at: z.iso.datetime().nullable(),
  })
  .describe("One delivery of one event to one endpoint.");

export const webhookDeliveriesResponseSchema = z.object({
  data: z.array(webhookDeliverySchema),
  pagination: paginationSchema,
});

export const deliveryQueuedSchema = z.object({
  id: z.string().describe("The delivery's id."),
  event_id: z.string().describe("The event's id (the `webhook-id` header)."),
  status: z.literal("pending"),
});

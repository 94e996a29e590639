import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { respond } from "@/lib/api/json";
import { named } from "@/lib/api/route-docs";
import { resendDelivery } from "@/lib/domain/webhooks/deliveries";
import { deliveryParamsSchema, deliveryQueuedSchema } from "@/lib/schemas/webhook-deliveries";

// POST /api/settings/webhooks/{id}/deliveries/{delivery_id}/resend – deliver it again
export const POST = apiRoute({
  permission: "webhooks:manage",
  params: deliveryParamsSchema,
  bodyOptional: true,
  handler: async ({ ctx, params }) => respond(await resendDelivery(ctx, params.id, params.delivery_id), 202),
  docs: {
    tag: "Settings",
    operationId: "resendWebhookDelivery",
    summary: "Resend a delivery",
    description:
      "Queues the delivery again, whatever its status: the same event with the same `webhook-id` (a receiver " +
      "that already has it can skip it), signed anew; its attempts start over.",
    paramDescriptions: { id: "The endpoint's id.", delivery_id: "The delivery's id." },
    responses: [
      { status: 202, description: "Queued.", schema: named("WebhookDeliveryQueued", deliveryQueuedSchema) },
    ],
    notFound: "Webhook delivery",
    example: {
      params: { id: "whe_01jq8m2x4kd7w3a9c5v6r8t0ye", delivery_id: "whd_01jq8m2x4kd7w3a9c5v6r8t0yf" },
    },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

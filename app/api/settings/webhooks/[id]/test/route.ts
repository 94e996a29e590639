import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { respond } from "@/lib/api/json";
import { named } from "@/lib/api/route-docs";
import { sendTestEvent } from "@/lib/domain/webhooks/deliveries";
import { deliveryQueuedSchema, endpointParamsSchema } from "@/lib/schemas/webhook-deliveries";

// POST /api/settings/webhooks/{id}/test – queue a `webhook.test` event to this endpoint alone
export const POST = apiRoute({
  permission: "webhooks:manage",
  params: endpointParamsSchema,
  bodyOptional: true,
  handler: async ({ ctx, params }) => respond(await sendTestEvent(ctx, params.id), 202),
  docs: {
    tag: "Settings",
    operationId: "sendWebhookTestEvent",
    summary: "Send a test event",
    description:
      "Queues a `webhook.test` event (`data`: `{ endpoint_id, message }`) to this endpoint only, signed " +
      "and retried like any event; its delivery appears in the endpoint's deliveries.",
    paramDescriptions: { id: "The endpoint's id." },
    responses: [
      { status: 202, description: "Queued.", schema: named("WebhookDeliveryQueued", deliveryQueuedSchema) },
    ],
    notFound: "Webhook endpoint",
    example: { params: { id: "whe_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

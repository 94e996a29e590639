import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { listDeliveries } from "@/lib/domain/webhooks/deliveries";
import {
  deliveriesQuerySchema,
  endpointParamsSchema,
  webhookDeliveriesResponseSchema,
} from "@/lib/schemas/webhook-deliveries";

// GET /api/settings/webhooks/{id}/deliveries – the endpoint's recent deliveries, newest first
export const GET = apiRoute({
  permission: "webhooks:manage",
  params: endpointParamsSchema,
  query: deliveriesQuerySchema,
  handler: ({ ctx, params, query }) => listDeliveries(ctx, params.id, query),
  docs: {
    tag: "Settings",
    operationId: "listWebhookDeliveries",
    summary: "List an endpoint's deliveries",
    description:
      "The endpoint's deliveries of the last 30 days (older ones are pruned), newest first: the event, its " +
      "status, the endpoint's response code, the time the last attempt took, the attempts so far and the next " +
      "retry. Never a secret.",
    paramDescriptions: { id: "The endpoint's id." },
    responses: [
      {
        status: 200,
        description: "A page of deliveries.",
        schema: named("WebhookDeliveriesResponse", webhookDeliveriesResponseSchema),
      },
    ],
    notFound: "Webhook endpoint",
    example: { params: { id: "whe_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

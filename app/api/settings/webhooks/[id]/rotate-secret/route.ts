import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { rotateWebhookSecret } from "@/lib/domain/webhooks/endpoints";
import { idParamsSchema } from "@/lib/schemas/settings";
import { rotatedWebhookSecretSchema } from "@/lib/schemas/webhooks";

// POST /api/settings/webhooks/{id}/rotate-secret – a new signing secret; the old one signs 24 h more
export const POST = apiRoute({
  permission: "webhooks:manage",
  params: idParamsSchema,
  handler: ({ ctx, params }) => rotateWebhookSecret({ ctx, id: params.id }),
  docs: {
    tag: "Settings",
    operationId: "rotateWebhookSecret",
    summary: "Rotate a webhook endpoint's secret",
    description:
      "Makes a new signing secret, answered this once. For 24 hours deliveries carry a signature with " +
      "each secret (Standard Webhooks allows several), so a receiver can switch without missing one.",
    paramDescriptions: { id: "The endpoint's id." },
    responses: [
      {
        status: 200,
        description: "The new secret.",
        schema: named("RotatedWebhookSecret", rotatedWebhookSecretSchema),
      },
    ],
    notFound: "Webhook endpoint",
    example: { params: { id: "whe_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { deleteWebhookEndpoint } from "@/lib/domain/webhooks/endpoints";
import { idParamsSchema } from "@/lib/schemas/settings";

// DELETE /api/settings/webhooks/{id} – delete an endpoint and its delivery log (admins)
export const DELETE = apiRoute({
  permission: "webhooks:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => {
    await deleteWebhookEndpoint({ ctx, id: params.id });
    return new Response(null, { status: 204 });
  },
  docs: {
    tag: "Settings",
    operationId: "deleteWebhookEndpoint",
    summary: "Delete a webhook endpoint",
    description: "Deletes the endpoint and its deliveries; nothing more is sent to it.",
    paramDescriptions: { id: "The endpoint's id." },
    responses: [{ status: 204, description: "Deleted; no body." }],
    notFound: "Webhook endpoint",
    example: { params: { id: "whe_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed("DELETE");

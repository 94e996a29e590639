import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { listWebhookEndpoints, upsertWebhookEndpoint } from "@/lib/domain/webhooks/endpoints";
import {
  createdWebhookEndpointSchema,
  upsertWebhookBodySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
} from "@/lib/schemas/webhooks";

// GET /api/settings/webhooks – the company's webhook endpoints (admins, dashboard only)
export const GET = apiRoute({
  permission: "webhooks:manage",
  handler: ({ ctx }) => listWebhookEndpoints({ ctx }),
  docs: {
    tag: "Settings",
    operationId: "listWebhookEndpoints",
    summary: "List webhook endpoints",
    description:
      "The company's webhook endpoints, oldest first, with their state (disabled and why, failing since). " +
      "Never the signing secret.",
    responses: [
      {
        status: 200,
        description: "The endpoints.",
        schema: named("WebhookEndpointList", webhookEndpointListSchema),
      },
    ],
  },
});

// POST /api/settings/webhooks – create an endpoint (secret shown once), or update one by id
export const POST = apiRoute({
  permission: "webhooks:manage",
  body: upsertWebhookBodySchema,
  handler: async ({ ctx, body }) => {
    const { created, endpoint } = await upsertWebhookEndpoint({ ctx, input: body });
    return respond(endpoint, created ? 201 : 200);
  },
  docs: {
    tag: "Settings",
    operationId: "upsertWebhookEndpoint",
    summary: "Create or update a webhook endpoint",
    description: [
      "Without `id`: creates an endpoint for the chosen event types (201). The answer carries the signing " +
        "`secret` (`whsec_` + base64) this once.",
      "With `id`: changes the fields given (200), including `enabled`; an id of another company is not found.",
      "The URL must be http or https without a user name or password, and its host must resolve only to " +
        "public addresses: loopback, private, link-local, unique-local and metadata addresses are a 400 " +
        "naming `url` (unless the server runs with WEBHOOKS_ALLOW_PRIVATE=true).",
    ].join("\n\n"),
    bodyName: "UpsertWebhookBody",
    responses: [
      {
        status: 201,
        description: "The new endpoint, with its secret.",
        schema: named("CreatedWebhookEndpoint", createdWebhookEndpointSchema),
      },
      {
        status: 200,
        description: "The updated endpoint.",
        schema: named("WebhookEndpoint", webhookEndpointSchema),
      },
    ],
    notFound: "Webhook endpoint",
    example: {
      body: {
        url: "https://hooks.example.com/fieldcrm",
        events: ["lead.created", "lead.updated"],
        description: "Dialer sync",
      },
    },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");

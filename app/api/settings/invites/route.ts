import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { requestOrigin } from "@/lib/api/request-origin";
import { named } from "@/lib/api/route-docs";
import { createInvite, listInvites } from "@/lib/domain/accounts/invites";
import { createdInviteSchema, createInviteBodySchema, inviteListSchema } from "@/lib/schemas/accounts";

// GET /api/settings/invites – the company's open invites (admins, dashboard only)
export const GET = apiRoute({
  permission: "users:manage",
  handler: async ({ ctx }) => ({ ...(await listInvites({ ctx })) }),
  docs: {
    tag: "Settings",
    operationId: "listInvites",
    summary: "List invites",
    description:
      "Invites neither accepted nor revoked, newest first; an expired one says so. Never a token or its " +
      "hash. `email_configured` says whether the server emails invites (SMTP_URL).",
    responses: [
      { status: 200, description: "The open invites.", schema: named("InviteList", inviteListSchema) },
    ],
  },
});

// POST /api/settings/invites – invite someone by email with a role; the link is emailed (or answered once)
export const POST = apiRoute({
  permission: "users:manage",
  body: createInviteBodySchema,
  handler: async ({ ctx, body, request }) =>
    respond(await createInvite({ ctx, input: body, requestOrigin: requestOrigin(request) }), 201),
  docs: {
    tag: "Settings",
    operationId: "createInvite",
    summary: "Invite a user",
    description:
      "Invites an email with a role. The person opens the one-time link within 7 days, chooses a name and " +
      "a password and is signed in (`POST /auth/invites/accept`). With a mail server configured the link " +
      "is emailed; without, the answer carries it in `url`, this once (only its hash is stored). An open " +
      "invite for the same email is replaced. An email that is already a user of the company is a 409. " +
      "If the mail server does not take the email, the invite is withdrawn and the answer is a 503.",
    bodyName: "CreateInviteBody",
    responses: [
      { status: 201, description: "The invite.", schema: named("CreatedInvite", createdInviteSchema) },
    ],
    errors: ["CONFLICT", "SERVICE_UNAVAILABLE"],
    errorMessages: { CONFLICT: "A user with the email sam@example.com already exists" },
    example: { body: { email: "sam@example.com", role: "sales_rep" } },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");

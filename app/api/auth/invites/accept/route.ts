import { z } from "zod";
import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { clientIp } from "@/lib/auth/client-ip";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { sessionCookie } from "@/lib/auth/session-cookie";
import { acceptInvite } from "@/lib/domain/accounts/invites";
import { acceptInviteBodySchema } from "@/lib/schemas/accounts";
import { sessionInfoSchema } from "@/lib/schemas/session";

const acceptedSchema = sessionInfoSchema
  .extend({ status: z.literal("success") })
  .describe("The new user, signed in: who, which company, and the role's scopes.");

// POST /api/auth/invites/accept – accept an invite: the new user chooses name and password and is signed in
export const POST = apiRoute({
  auth: "none",
  requireVersion: true,
  body: acceptInviteBodySchema,
  handler: async ({ db, body, request }) => {
    const result = await acceptInvite({
      db: await db(),
      input: body,
      userAgent: request.headers.get("user-agent"),
      ip: clientIp(request.headers),
    });
    return respond({ status: "success", ...result.session }, 201, {
      "set-cookie": sessionCookie(result.token, result.maxAgeSeconds, request),
    });
  },
  docs: {
    tag: "Dashboard session",
    operationId: "acceptInvite",
    summary: "Accept an invite",
    description:
      "Creates the invited user (the invite's email and role, the name and password sent) and starts their " +
      "session: the answer sets the HttpOnly session cookie. A link works once: an unknown, used, revoked or " +
      "expired token is a 400 naming `token`. If a user with the email was added meanwhile, a 409.",
    bodyName: "AcceptInviteBody",
    responses: [
      {
        status: 201,
        description: "The user is created and signed in.",
        schema: named("AcceptedInvite", acceptedSchema),
        headers: {
          "Set-Cookie": `${SESSION_COOKIE}=<token>; HttpOnly; SameSite=Lax; Path=/ (Secure over HTTPS).`,
        },
      },
    ],
    errors: ["CONFLICT"],
    errorMessages: { VALIDATION_ERROR: "token: This invite has expired. Ask for a new invite." },
    example: { body: { token: "<token from the link>", name: "Sam Rivera", password: "<new password>" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { enableTwoFactor } from "@/lib/domain/two-factor/two-factor";
import { twoFactorCodeBodySchema, twoFactorEnabledSchema } from "@/lib/schemas/two-factor";

// POST /api/auth/two-factor/enable – confirms the new authenticator with its first code
export const POST = apiRoute({
  auth: "session",
  body: twoFactorCodeBodySchema,
  handler: async ({ ctx, body }) => ({ ...(await enableTwoFactor({ ctx, input: body })) }),
  docs: {
    tag: "Dashboard session",
    operationId: "enableTwoFactor",
    summary: "Turn on two-factor",
    description:
      "Confirms the secret of `POST /auth/two-factor/setup` with a code from the authenticator app: from " +
      "now on sign-in asks for a code. The answer carries ten single-use recovery codes, shown this once " +
      "(only their hashes are kept). A wrong code is a 401 and changes nothing.",
    bodyName: "TwoFactorCodeBody",
    responses: [
      {
        status: 200,
        description: "Two-factor is on.",
        schema: named("TwoFactorEnabled", twoFactorEnabledSchema),
      },
    ],
    errors: ["INVALID_CREDENTIALS", "CONFLICT"],
    errorMessages: {
      INVALID_CREDENTIALS: "That code is not right. Check your authenticator app and try again.",
      CONFLICT: "Two-factor sign-in is already on",
    },
    example: { body: { code: "123456" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

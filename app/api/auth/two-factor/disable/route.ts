import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { disableTwoFactor } from "@/lib/domain/two-factor/two-factor";
import { disableTwoFactorBodySchema, twoFactorStatusSchema } from "@/lib/schemas/two-factor";

// POST /api/auth/two-factor/disable – turns two-factor off with a current code or the password
export const POST = apiRoute({
  auth: "session",
  body: disableTwoFactorBodySchema,
  handler: async ({ ctx, body }) => ({ ...(await disableTwoFactor({ ctx, input: body })) }),
  docs: {
    tag: "Dashboard session",
    operationId: "disableTwoFactor",
    summary: "Turn off two-factor",
    description:
      "Removes the signed-in user's authenticator and recovery codes, after a current code or the " +
      "user's password: one of `code` and `password`, not both (else 400). Wrong ones count against the account's sign-in throttle. If the " +
      "company requires two-factor, the next sign-in leads through setup again.",
    bodyName: "DisableTwoFactorBody",
    responses: [
      {
        status: 200,
        description: "Two-factor is off.",
        schema: named("TwoFactorStatus", twoFactorStatusSchema),
      },
    ],
    errors: ["INVALID_CREDENTIALS", "TOO_MANY_ATTEMPTS", "CONFLICT"],
    errorMessages: {
      INVALID_CREDENTIALS: "That code is not right. Check your authenticator app and try again.",
      CONFLICT: "Two-factor sign-in is not on",
    },
    example: { body: { code: "123456" } },
    moreExamples: [
      { name: "withPassword", summary: "With the password instead", body: { password: "<password>" } },
    ],
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

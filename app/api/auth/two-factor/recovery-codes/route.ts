import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { regenerateRecoveryCodes } from "@/lib/domain/two-factor/two-factor";
import { recoveryCodesAnswerSchema, twoFactorCodeBodySchema } from "@/lib/schemas/two-factor";

// POST /api/auth/two-factor/recovery-codes – ten new recovery codes in place of the old ones
export const POST = apiRoute({
  auth: "session",
  body: twoFactorCodeBodySchema,
  handler: async ({ ctx, body }) => ({ ...(await regenerateRecoveryCodes({ ctx, input: body })) }),
  docs: {
    tag: "Dashboard session",
    operationId: "replaceRecoveryCodes",
    summary: "New recovery codes",
    description:
      "After a current code from the authenticator app: ten new single-use recovery codes, shown this " +
      "once; the old ones stop working. Wrong codes count against the account's sign-in throttle.",
    bodyName: "TwoFactorCodeBody",
    responses: [
      {
        status: 200,
        description: "The new codes.",
        schema: named("RecoveryCodes", recoveryCodesAnswerSchema),
      },
    ],
    errors: ["INVALID_CREDENTIALS", "TOO_MANY_ATTEMPTS", "CONFLICT"],
    errorMessages: {
      INVALID_CREDENTIALS: "That code is not right. Check your authenticator app and try again.",
      CONFLICT: "Two-factor sign-in is not on",
    },
    example: { body: { code: "123456" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { beginTwoFactorSetup } from "@/lib/domain/two-factor/two-factor";
import { twoFactorSetupSchema } from "@/lib/schemas/two-factor";

// POST /api/auth/two-factor/setup – a new authenticator secret and its QR code, to confirm with a code
export const POST = apiRoute({
  auth: "session",
  bodyOptional: true,
  handler: async ({ ctx }) => ({ ...(await beginTwoFactorSetup({ ctx })) }),
  docs: {
    tag: "Dashboard session",
    operationId: "startTwoFactorSetup",
    summary: "Start setting up two-factor",
    description:
      "Makes a new TOTP secret for the signed-in user and answers it with its `otpauth://` address and QR " +
      "code. Nothing changes at sign-in until `POST /auth/two-factor/enable` confirms it with a code from " +
      "the app; starting again replaces a secret not yet confirmed. A 409 while two-factor is on.",
    responses: [
      { status: 200, description: "What to scan.", schema: named("TwoFactorSetup", twoFactorSetupSchema) },
    ],
    errors: ["CONFLICT"],
    errorMessages: { CONFLICT: "Two-factor sign-in is already on" },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { getTwoFactorStatus } from "@/lib/domain/two-factor/two-factor";
import { twoFactorStatusSchema } from "@/lib/schemas/two-factor";

// GET /api/auth/two-factor – the signed-in user's two-factor state
export const GET = apiRoute({
  auth: "session",
  handler: async ({ ctx }) => ({ ...(await getTwoFactorStatus({ ctx })) }),
  docs: {
    tag: "Dashboard session",
    operationId: "getTwoFactor",
    summary: "Your two-factor sign-in",
    description:
      "Whether sign-in asks the signed-in user for an authenticator code, since when, how many recovery " +
      "codes are left, and whether the company requires two-factor. Never the secret.",
    responses: [
      { status: 200, description: "The state.", schema: named("TwoFactorStatus", twoFactorStatusSchema) },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

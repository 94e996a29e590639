import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { getCompanyTwoFactor, setCompanyTwoFactor } from "@/lib/domain/two-factor/two-factor";
import { companyTwoFactorSchema } from "@/lib/schemas/two-factor";

// GET /api/settings/two-factor – whether the company requires two-factor sign-in (admins)
export const GET = apiRoute({
  permission: "users:manage",
  handler: async ({ ctx }) => ({ ...(await getCompanyTwoFactor({ ctx })) }),
  docs: {
    tag: "Settings",
    operationId: "getCompanyTwoFactor",
    summary: "Two-factor requirement",
    description: "Whether every user of the company must sign in with a second factor.",
    responses: [
      { status: 200, description: "The rule.", schema: named("CompanyTwoFactor", companyTwoFactorSchema) },
    ],
  },
});

// PUT /api/settings/two-factor – require (or stop requiring) two-factor sign-in
export const PUT = apiRoute({
  permission: "users:manage",
  body: companyTwoFactorSchema,
  handler: async ({ ctx, body }) => ({ ...(await setCompanyTwoFactor({ ctx, input: body })) }),
  docs: {
    tag: "Settings",
    operationId: "setCompanyTwoFactor",
    summary: "Require two-factor",
    description:
      "Requires two-factor sign-in for every user of the company, or stops requiring it. It applies at " +
      "each user's next sign-in: one without two-factor is led through setup right after the password. " +
      "Open sessions and API keys are not affected.",
    bodyName: "CompanyTwoFactorBody",
    responses: [
      {
        status: 200,
        description: "The rule now.",
        schema: named("CompanyTwoFactor", companyTwoFactorSchema),
      },
    ],
    example: { body: { require_two_factor: true } },
  },
});

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, PUT");

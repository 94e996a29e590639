import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { listOtherAccounts } from "@/lib/domain/users/other-accounts";
import { otherAccountListSchema } from "@/lib/schemas/session";

// GET /api/auth/other-accounts – other companies that added an account with the signed-in user's email
export const GET = apiRoute({
  auth: "session",
  handler: async ({ ctx }) => ({ ...(await listOtherAccounts({ ctx })) }),
  docs: {
    tag: "Dashboard session",
    operationId: "listOtherAccounts",
    summary: "List other companies with your email",
    description:
      "The companies that added an account with the signed-in user's email after the user's own account " +
      "was made, newest first: each company's name and when it added the account, nothing else. Such an " +
      "account can sign in with this email; if its password is the same, sign-in asks which company to use.",
    responses: [
      {
        status: 200,
        description: "The other companies (often none).",
        schema: named("OtherAccountList", otherAccountListSchema),
      },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

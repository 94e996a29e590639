import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { clientIp } from "@/lib/auth/client-ip";
import { sessionCookie } from "@/lib/auth/session-cookie";
import { signIn } from "@/lib/domain/users/sign-in";
import { sessionInfoSchema, signInBodySchema, signInChoiceSchema } from "@/lib/schemas/session";
import { named } from "@/lib/api/route-docs";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { z } from "zod";
import { twoFactorChallengeSchema, twoFactorSetupChallengeSchema } from "@/lib/schemas/two-factor";

// The answer wraps the session record, or lists the companies to choose from; documented from the same schemas.
const signInResponseSchema = z
  .discriminatedUnion("status", [
    sessionInfoSchema
      .extend({ status: z.literal("success") })
      .describe("Signed in: who, which company, and the role's scopes."),
    signInChoiceSchema,
    twoFactorChallengeSchema,
    twoFactorSetupChallengeSchema,
  ])
  .describe(
    "`success`: signed in. `choose_company`: no session yet; sign in again with a `company_id`. " +
      "`two_factor_required` / `two_factor_setup_required`: no session yet; send the challenge and a code " +
      "to `POST /auth/sign-in/two-factor`.",
  );

const CHOOSE_COMPANY_MESSAGE =
  "Your email and password match accounts in several companies: choose the company to sign in to";
const CHOOSE_COMPANY_LOCKED_MESSAGE =
  "Choose the company to sign in to. Other accounts with this email are locked after failed sign-ins " +
  "and are not listed; try again later to see them";

// POST /api/auth/sign-in – dashboard sign-in with email and password; sets the session cookie
export const POST = apiRoute({
  auth: "none",
  requireVersion: true,
  body: signInBodySchema,
  handler: async ({ db, body, request }) => {
    const result = await signIn({
      db: await db(),
      input: body,
      userAgent: request.headers.get("user-agent"),
      ip: clientIp(request.headers),
    });
    if (result.kind === "choose_company") {
      return respond({
        status: "choose_company",
        message: result.othersLocked ? CHOOSE_COMPANY_LOCKED_MESSAGE : CHOOSE_COMPANY_MESSAGE,
        companies: result.companies,
        others_locked: result.othersLocked,
      });
    }
    if (result.kind === "two_factor") {
      const { step } = result;
      const expires_at = step.expiresAt.toISOString();
      return step.purpose === "verify"
        ? respond({ status: "two_factor_required", challenge: step.challenge, expires_at })
        : respond({
            status: "two_factor_setup_required",
            challenge: step.challenge,
            expires_at,
            setup: step.setup,
          });
    }
    return respond({ status: "success", ...result.session }, 200, {
      "set-cookie": sessionCookie(result.token, result.maxAgeSeconds, request),
    });
  },
  docs: {
    tag: "Dashboard session",
    operationId: "signIn",
    summary: "Sign in",
    description:
      "Checks the email and password and starts a session: the answer sets the HttpOnly session cookie. An " +
      "email may have an account in several companies; the password is checked against each. When it is " +
      "right for more than one active account (or for one while another account with the email is " +
      "locked and so not checked), the answer is `status: choose_company` with those companies and no session: send the same email and password again with the chosen `company_id`. An unknown " +
      "email and a wrong password get the same 401; an account with two-factor sign-in answers " +
      "`two_factor_required` with a challenge (10 minutes) and no session, and one whose company requires " +
      "two-factor but has none answers `two_factor_setup_required` with a new authenticator to set up: " +
      "either way the session starts at `POST /auth/sign-in/two-factor`; repeated failures for one account are slowed down " +
      "(429 with `Retry-After`), across both steps; a deactivated account gets 403.",
    bodyName: "SignInBody",
    responses: [
      {
        status: 200,
        description:
          "Signed in (`success`; the session cookie is set), or several companies to choose from " +
          "(`choose_company`; no cookie), or a second step to take (`two_factor_required`, " +
          "`two_factor_setup_required`; no cookie).",
        schema: named("SignInResponse", signInResponseSchema),
        headers: {
          "Set-Cookie": `${SESSION_COOKIE}=<token>; HttpOnly; SameSite=Lax; Path=/ (Secure over HTTPS).`,
        },
      },
    ],
    errors: ["INVALID_CREDENTIALS", "TOO_MANY_ATTEMPTS", "FORBIDDEN", "SERVICE_UNAVAILABLE"],
    errorMessages: {
      FORBIDDEN: "This account has been deactivated. Ask an administrator to reactivate it.",
    },
    example: { body: { email: "admin@example.com", password: "<password>" } },
    moreExamples: [
      {
        name: "chosenCompany",
        summary: "The second step: the same credentials and the chosen company",
        body: { email: "admin@example.com", password: "<password>", company_id: "co_123" },
      },
    ],
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

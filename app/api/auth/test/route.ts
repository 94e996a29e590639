import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { describeCredentials } from "@/lib/domain/auth-test";

// GET /api/auth/test – report whether the credentials are valid and what they carry
export const GET = apiRoute({
  handler: async ({ ctx }) => ({ ...describeCredentials({ ctx }) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

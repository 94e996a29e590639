import { randomUUID } from "node:crypto";
import { jsonResponse } from "@/lib/api/handler";

// Any path under /api that no route serves: a JSON 404, never an HTML page.
const notFound = async (request: Request) =>
  jsonResponse(
    {
      status: "error",
      message: `No endpoint at ${new URL(request.url).pathname}`,
      error_code: "NOT_FOUND",
    },
    404,
    { "x-request-id": randomUUID(), "cache-control": "no-store" },
  );

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;

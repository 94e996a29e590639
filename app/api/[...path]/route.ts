import { randomUUID } from "node:crypto";
import { noEndpointBody } from "@/lib/api/before-routing";
import { jsonResponse } from "@/lib/api/handler";

// Any path under /api that no route serves: a JSON 404, never an HTML page.
const notFound = async (request: Request) =>
  jsonResponse(noEndpointBody(new URL(request.url).pathname), 404, {
    "x-request-id": randomUUID(),
    "cache-control": "no-store",
  });

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;

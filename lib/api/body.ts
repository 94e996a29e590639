import "server-only";
import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * 415 unless application/json, 413 over 1 MiB (Content-Length and while streaming), 400 INVALID_JSON unless
 * an object; the reviver drops `__proto__` keys so no input can touch prototypes.
 */
export async function readJsonObjectBody(request: Request): Promise<Record<string, unknown>> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw ApiError.coded(
      "UNSUPPORTED_MEDIA_TYPE",
      "Send the request body as JSON with Content-Type: application/json",
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimited(request);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key, value: unknown) => (key === "__proto__" ? undefined : value));
  } catch {
    throw ApiError.coded("INVALID_JSON", "The request body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw ApiError.coded("INVALID_JSON", "The request body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}

function tooLarge() {
  return ApiError.coded(
    "PAYLOAD_TOO_LARGE",
    "The request body must not be larger than 1 MiB (1048576 bytes)",
  );
}

async function readLimited(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    return decoder.decode(Buffer.concat(chunks));
  } catch {
    throw ApiError.coded("INVALID_JSON", "The request body is not valid UTF-8 JSON");
  }
}

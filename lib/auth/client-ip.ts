import "server-only";

/**
 * The client's address as the nearest proxy saw it: the last `x-forwarded-for` entry (Next.js's
 * server adds the socket's address when the header is absent). A client that reaches the server
 * directly can write that header itself, so limits keyed by it are a speed bump, not a wall: the
 * password reset throttle also counts per email (SECURITY.md).
 */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return last ? last.slice(0, 64) : "unknown";
}

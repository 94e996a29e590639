import "server-only";
import { isIP } from "node:net";

/**
 * The client's address as the nearest proxy saw it: the last entry of X-Forwarded-For (Next's server
 * sets it to the socket's address when no proxy did). Earlier entries are the client's own say, so
 * they are ignored. Null when missing or not an IP address. Shown in sessions and the audit log only.
 */
export function clientIp(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim() ?? headers.get("x-real-ip")?.trim();
  if (!last) return null;
  const address = last.startsWith("::ffff:") && isIP(last.slice(7)) === 4 ? last.slice(7) : last;
  return isIP(address) ? address : null;
}

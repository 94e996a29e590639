import "server-only";
import ipaddr from "ipaddr.js";
import { env } from "@/lib/env";

/**
 * Whether a webhook may connect to this resolved address: public unicast only, unless
 * WEBHOOKS_ALLOW_PRIVATE=true. ipaddr.js names the ranges (loopback, private, link-local — which
 * holds the cloud metadata address —, unique-local…); IPv4-mapped IPv6 is judged as IPv4.
 */
export function allowAddressAtConnect(address: string): boolean {
  if (env().WEBHOOKS_ALLOW_PRIVATE) return true;
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

import "server-only";
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { env } from "@/lib/env";
import { ValidationError } from "@/lib/domain/errors";

/*
 * Where a webhook may be sent (extensions.md E8, issue #55): only to public unicast addresses, so
 * an endpoint URL cannot reach the server's own network (loopback, private, link-local,
 * unique-local, carrier-grade NAT, cloud metadata). Checked when an endpoint is saved and again
 * at connect time (the delivery worker), so a DNS change cannot point a webhook inside.
 * WEBHOOKS_ALLOW_PRIVATE=true lifts the refusal for tests and local development.
 */

/** Whether private addresses are allowed (WEBHOOKS_ALLOW_PRIVATE=true). */
export function privateAddressesAllowed(): boolean {
  return env().WEBHOOKS_ALLOW_PRIVATE;
}

/**
 * Whether a webhook may connect to this IP address: ipaddr.js's range must be plain `unicast`
 * (an IPv4-mapped IPv6 address is judged as its IPv4 address). Anything unparsable is refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

/** Whether a webhook may connect to this address under the current setting. */
export function isAllowedAddress(address: string): boolean {
  return privateAddressesAllowed() || isPublicAddress(address);
}

const refuse = (message: string) => new ValidationError([{ field: "url", message }]);

/** The URL's host name without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** Resolves a host name to every address it has (a literal IP answers itself). */
export type Resolver = (host: string) => Promise<string[]>;
const resolveAll: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Checks an endpoint URL at save time: http or https, no credentials, and a host whose every
 * address is allowed. Answers the URL as normalised; a refusal is a 400 naming `url`.
 */
export async function checkWebhookUrl(raw: string, resolve: Resolver = resolveAll): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("must be an absolute http or https URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse("must use https or http");
  if (url.username || url.password) throw refuse("must not carry a user name or password");
  if (url.hash) throw refuse("must not have a #fragment");
  const host = hostOf(url);
  if (!host) throw refuse("must name a host");
  await checkHostAddresses(host, resolve);
  return url.toString();
}

/**
 * Resolves the host and refuses it when any of its addresses is not allowed (a name answering
 * one public and one private address could be steered to the private one). Answers the
 * addresses, so a caller can connect to a checked one. Also used at connect time.
 */
export async function checkHostAddresses(host: string, resolve: Resolver = resolveAll): Promise<string[]> {
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw refuse(`the host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw refuse(`the host ${host} could not be resolved`);
  if (privateAddressesAllowed()) return addresses;
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined) {
    throw refuse(
      `must not point to a loopback, private, link-local or other internal address (${host} is ${refused})`,
    );
  }
  return addresses;
}

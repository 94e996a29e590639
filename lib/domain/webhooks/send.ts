import "server-only";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

/** A delivery that has no 2xx answer within this time has failed. */
export const SEND_TIMEOUT_MS = 10_000;
/** At most this much of a response body is read (for the log); the rest is cut off. */
export const MAX_RESPONSE_BYTES = 16 * 1024;

export interface SendResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  /** Why it failed, for the log: never a header or a secret. */
  error: string | null;
}

export interface SendOptions {
  /** May a connection go to this IP address? (the address policy, asked at connect time) */
  allowAddress: (address: string) => boolean;
  timeoutMs?: number;
}

/** A connection to an address the policy refuses. */
class RefusedAddressError extends Error {
  code = "EREFUSEDADDRESS";
}

/**
 * POSTs a JSON body once. The resolved address is checked when the socket connects (so a DNS
 * change cannot point the URL inside), redirects are not followed, and the body is read only up
 * to a small limit.
 */
export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, status: null, durationMs: 0, error: "Invalid URL" };
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    return { ok: false, status: null, durationMs: 0, error: "Unsupported URL scheme" };
  // A literal address is never looked up, so the policy is asked here.
  const literal = target.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(literal) && !options.allowAddress(literal))
    return { ok: false, status: null, durationMs: 0, error: `Address not allowed: ${literal}` };

  const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return (callback as (e: Error) => void)(error);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((a) => !options.allowAddress(a.address));
      if (refused || list.length === 0)
        return (callback as (e: Error) => void)(
          new RefusedAddressError(`Address not allowed: ${refused?.address ?? hostname}`),
        );
      if (lookupOptions.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const [first] = list as [dns.LookupAddress];
      (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    });
  };

  const client = target.protocol === "https:" ? https : http;
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target,
      {
        method: "POST",
        lookup,
        agent: false,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "FieldCRM-Webhooks/1",
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          // Enough for the log: the rest is not read.
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () => {
          const ok = status >= 200 && status < 300;
          finish({ ok, status, error: ok ? null : `HTTP ${status}` });
        };
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, error: `Timed out after ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      const message =
        error instanceof RefusedAddressError
          ? error.message
          : `Connection failed${error.code ? `: ${error.code}` : ""}`;
      finish({ ok: false, status: null, error: message });
    });
    request.end(body);
  });
}

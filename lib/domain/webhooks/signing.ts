import "server-only";
import { Webhook } from "standardwebhooks";

/** The secrets that sign now: the current one, and the previous one while a rotation lasts. */
export function signingSecrets(
  endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(endpoint.previousSecret);
  return secrets;
}

/**
 * Standard Webhooks headers for one message. With several secrets (a rotation) each signs, and
 * the signatures are space-separated, so a receiver holding either secret verifies.
 */
export function signedHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  const signature = secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(" ");
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}

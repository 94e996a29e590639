import "server-only";
import { createTransport } from "nodemailer";
import { env } from "@/lib/env";

/** One email: a plain-text part and an HTML part saying the same (lib/mail/templates.ts). */
export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Why a link that was never delivered was withdrawn, as the audit log says it. */
export const MAIL_REFUSED = "the mail server did not take the email";

/** An email the mail server did not take (down, refused, timed out). Its message holds no link. */
export class MailDeliveryError extends Error {
  override name = "MailDeliveryError";
}

/** Whether email is sent at all: SMTP_URL is set. Without it, links are shown to the admin once. */
export function isEmailConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

/** The sender: MAIL_FROM, else no-reply at APP_URL's host. */
export function mailFrom(): string {
  const { MAIL_FROM, APP_URL } = env();
  if (MAIL_FROM) return MAIL_FROM;
  const host = APP_URL ? new URL(APP_URL).hostname : "localhost";
  return `FieldCRM <no-reply@${host}>`;
}

let transport: { url: string; send: ReturnType<typeof createTransport> } | undefined;

function transportFor(url: string) {
  // Tests point SMTP_URL at a server of their own: a new URL gets a new transport.
  if (transport?.url !== url) {
    transport = {
      url,
      // Bounded waits: a request that sends mail must still answer within its deadline.
      send: createTransport({ url, connectionTimeout: 3000, greetingTimeout: 3000, socketTimeout: 5000 }),
    };
  }
  return transport.send;
}

/** Sends one email through SMTP_URL; throws MailDeliveryError when it is not configured or refused. */
export async function sendEmail(email: Email): Promise<void> {
  const url = env().SMTP_URL;
  if (!url) throw new MailDeliveryError("Email is not configured (SMTP_URL)");
  try {
    await transportFor(url).sendMail({ from: mailFrom(), ...email });
  } catch (error) {
    // The server's own words may echo the message: keep only its code.
    const code = (error as { code?: unknown }).code;
    throw new MailDeliveryError(
      `The mail server did not take the email${typeof code === "string" ? ` (${code})` : ""}`,
    );
  }
}

/**
 * An absolute link into the dashboard: at APP_URL when set (always, with email configured, so an
 * emailed link never points at a Host header a client chose), else at the admin's own request's origin.
 */
export function appLink(path: string, requestOrigin: string): string {
  return `${env().APP_URL ?? requestOrigin}${path}`;
}

import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A received email, parsed: who it went to, its subject and its text and HTML parts. */
export interface ReceivedEmail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`: what SMTP_URL is set to. */
  url: string;
  port: number;
  received: ReceivedEmail[];
  /** The first email to `to` (any case) after `since` emails, waiting up to `timeoutMs` for it. */
  waitFor(to: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedEmail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server, no TLS, any sender and recipient) that keeps what
 * it receives, parsed with mailparser: tests send through nodemailer and read the result.
 */
export async function startTestSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedEmail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            parsed,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    received,
    async waitFor(to, { since = 0, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.slice(since).find((m) => m.to.includes(to.toLowerCase()));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no email to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link in an email's text that starts with `prefix` (e.g. `http://…/invite/`). */
export function linkIn(email: ReceivedEmail, pathPrefix: string): string {
  const match = email.text.match(new RegExp(`https?://\\S+${pathPrefix.replace(/\//g, "\\/")}\\S+`));
  if (!match) throw new Error(`no ${pathPrefix} link in the email:\n${email.text}`);
  return match[0];
}

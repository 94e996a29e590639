import "server-only";
import type { Email } from "./mailer";

/** Text as HTML text: every user value goes through this before it enters the HTML part. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * A plain, accessible HTML body: a language, a title, real paragraphs and a link whose text says
 * where it goes, the address written out too; no images, no layout tables.
 */
function htmlDocument(title: string, paragraphs: string[]): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; font-size: 16px; line-height: 1.5; color: #0f172a;">',
    ...paragraphs.map((p) => `<p>${p}</p>`),
    "</body></html>",
  ].join("\n");
}

const link = (url: string, text: string) =>
  `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a><br>${escapeHtml(url)}`;

export function inviteEmail(input: {
  to: string;
  companyName: string;
  inviterName: string | null;
  roleLabel: string;
  url: string;
  expiresAt: Date;
}): Email {
  const who = input.inviterName ?? "An administrator";
  const subject = `You're invited to ${input.companyName} on FieldCRM`;
  const until = formatWhen(input.expiresAt);
  return {
    to: input.to,
    subject,
    text: [
      `${who} invited you to join ${input.companyName} on FieldCRM as ${input.roleLabel}.`,
      "",
      "To accept, open this link, then choose your name and password:",
      input.url,
      "",
      `The link works once and until ${until}. If you did not expect this invitation, ignore this email.`,
    ].join("\n"),
    html: htmlDocument(subject, [
      `${escapeHtml(who)} invited you to join <strong>${escapeHtml(input.companyName)}</strong> on FieldCRM as ${escapeHtml(input.roleLabel)}.`,
      `To accept, open this link, then choose your name and password:<br>${link(input.url, `Accept the invitation to ${input.companyName}`)}`,
      `The link works once and until ${escapeHtml(until)}. If you did not expect this invitation, ignore this email.`,
    ]),
  };
}

export function passwordResetEmail(input: {
  to: string;
  accounts: { companyName: string; url: string }[];
  expiresAt: Date;
  issuedByAdmin: boolean;
}): Email {
  const subject = "Reset your FieldCRM password";
  const until = formatWhen(input.expiresAt);
  const intro = input.issuedByAdmin
    ? "An administrator of your company sent you a link to set a new FieldCRM password."
    : "Someone (hopefully you) asked to reset the FieldCRM password for this email address.";
  const several = input.accounts.length > 1;
  const lead = several
    ? "This email address has an account in several companies. Each link sets the password of one account:"
    : "Open this link to choose a new password:";
  return {
    to: input.to,
    subject,
    text: [
      intro,
      "",
      lead,
      ...input.accounts.flatMap((a) => (several ? [`${a.companyName}: ${a.url}`] : [a.url])),
      "",
      `Each link works once and until ${until}. Setting a new password signs that account out everywhere.`,
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ].join("\n"),
    html: htmlDocument(subject, [
      escapeHtml(intro),
      `${escapeHtml(lead)}<br>${input.accounts
        .map((a) => link(a.url, `Reset the password for ${a.companyName}`))
        .join("<br><br>")}`,
      `Each link works once and until ${escapeHtml(until)}. Setting a new password signs that account out everywhere.`,
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ]),
  };
}

function formatWhen(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

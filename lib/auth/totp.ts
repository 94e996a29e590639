import "server-only";
import { randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { sha256Hex } from "./secrets";

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 seconds. */
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** A code of the step before or after now is accepted too (clocks drift). */
const TOTP_WINDOW = 1;
const ISSUER = "FieldCRM";

/** A new shared secret: 160 random bits (RFC 4226's recommended length), base32. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = "account"): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://` address an authenticator app reads from the QR code. */
export function totpUri(secret: string, label: string): string {
  return totpOf(secret, label).toString();
}

/** The QR code of the address, as an SVG data URL (the CSP allows `data:` images). */
export async function totpQrCode(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
}

/**
 * The time step the code belongs to when it is right for now (± one step), else null. The caller
 * refuses a step at or before the last one used, so a code is not accepted twice.
 */
export function verifyTotp(secret: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(secret);
  const delta = totp.validate({ token, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  return totp.counter({ timestamp: now }) + delta;
}

/** The code for a time (tests, and nothing else in the app). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return totpOf(secret).generate({ timestamp });
}

export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten codes like `k7m2p-x9qrt`: 10 characters of a 31-letter alphabet (about 50 bits) each. */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let chars = "";
    for (let i = 0; i < 10; i++) chars += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Case, spaces and dashes do not matter when a recovery code is typed back. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, "");
}

/** What is stored of a recovery code: random enough that a plain SHA-256 cannot be reversed. */
export function hashRecoveryCode(code: string): string {
  return sha256Hex(`recovery:${normalizeRecoveryCode(code)}`);
}

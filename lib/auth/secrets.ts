import "server-only";
import {
  createHash,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type ScryptOptions,
} from "node:crypto";
import { hash as argon2Hash, parseOptions, verify as argon2Verify, type Algorithm } from "@node-rs/argon2";

/** argon2id, at OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane. */
const ARGON2ID: Algorithm = 2;
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * A PHC string that names its algorithm and parameters, so that a later change of them can
 * still verify it: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`.
 */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, PASSWORD_HASH_OPTIONS);
}

/** Checks a password against a stored hash: argon2 (PHC), or the older `scrypt$N$r$p$salt$hash`. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  if (stored.startsWith("$argon2")) {
    try {
      return await argon2Verify(stored, password);
    } catch {
      return false; // a malformed stored hash matches nothing
    }
  }
  return verifyScrypt(password, stored);
}

/** Whether a stored hash (that just verified) is not of today's algorithm and parameters. */
export function passwordNeedsRehash(stored: string): boolean {
  if (!stored.startsWith("$argon2")) return true;
  try {
    const options = parseOptions(stored);
    return (
      options.algorithm !== PASSWORD_HASH_OPTIONS.algorithm ||
      options.memoryCost !== PASSWORD_HASH_OPTIONS.memoryCost ||
      options.timeCost !== PASSWORD_HASH_OPTIONS.timeCost ||
      options.parallelism !== PASSWORD_HASH_OPTIONS.parallelism
    );
  } catch {
    return true;
  }
}

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

/**
 * The hashes written before argon2id: `scrypt$N$r$p$salt$hash` (base64url parts). Only verified,
 * then replaced at the next successful sign-in (lib/domain/users/sign-in.ts).
 */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashText, "base64url");
  try {
    const actual = await scrypt(password, Buffer.from(saltText, "base64url"), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    return false; // parameters node refuses: a broken hash matches nothing
  }
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(Math.ceil((bytes.length * 8) / Math.log2(62)), "0");
}

/** Recognisable prefix of every API key (secret scanners can match `fcrm_live_`). */
export const API_KEY_PREFIX = "fcrm_live_";

/** A new API key: the prefix plus 32 random bytes in base62 (43 characters). Shown once. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + base62(randomBytes(32));
}

/** SHA-256 (hex) of a key: the only form in which keys are stored. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** What the dashboard shows of a key: its prefix and first characters. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 6);
}

/** A random opaque token (session cookies). */
export function generateToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

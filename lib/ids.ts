import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeTime(ms: number): string {
  let out = "";
  let n = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

// An import makes ids by the thousand: random bytes come from a pool, not one call per id.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = 0;

function encodeRandom(length: number): string {
  if (taken + length > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  let out = "";
  for (let i = taken; i < taken + length; i++) out += CROCKFORD[pool[i]! % 32];
  taken += length;
  return out;
}

/**
 * A new record id: `<prefix>_`, 10 time and 16 random characters (ULID-like), so later ids sort
 * after earlier ones and the `created_at desc, id desc` indexes stay stable.
 */
export function newId(prefix: string): string {
  return `${prefix}_${encodeTime(Date.now())}${encodeRandom(16)}`;
}

export const ID_PREFIX = {
  company: "co",
  user: "usr",
  apiKey: "key",
  session: "ses",
  lead: "lead",
  customer: "cus",
  servicePlan: "plan",
  job: "job",
  visit: "vis",
  crew: "crw",
  lineItem: "li",
  payment: "pay",
  pinType: "pt",
  pin: "pin",
  territory: "ter",
  leadBulk: "blk",
  lostReason: "lr",
  audit: "aud",
  webhookEndpoint: "whe",
  webhookEvent: "evt",
  webhookDelivery: "whd",
  secondFactor: "sf",
  recoveryCode: "rc",
  signInChallenge: "chl",
  invite: "inv",
  passwordReset: "pwr",
  import: "imp",
} as const;

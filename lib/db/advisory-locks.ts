import { createHash } from "node:crypto";

/**
 * The 64-bit key of a transaction-scoped advisory lock on a name (the first 8 bytes of its
 * SHA-256): computed here, so the lock statement carries an integer and no text.
 */
export function advisoryLockKey(name: string): bigint {
  return createHash("sha256").update(name, "utf8").digest().readBigInt64BE(0);
}

/**
 * `select pg_advisory_xact_lock(k1), …`: the keys, in their order (the target list is evaluated
 * left to right), written into the text as integers. Having no parameters, it can share one
 * simple-protocol message with the BEGIN before it.
 */
export function advisoryLockStatement(keys: readonly bigint[]): string {
  if (keys.length === 0) throw new Error("advisoryLockStatement: no keys");
  return `select ${keys.map((key) => `pg_advisory_xact_lock(${BigInt.asIntN(64, key)})`).join(", ")}`;
}

import type { Weighted } from "./vocabulary";

// SQL builders of the generator. Every value is a pure function of the row number `n`, so the
// data is the same on every run and engine, and rows name each other by recomputing ids.

/** The newest generated record is created just before this instant; the oldest three years earlier. */
export const ANCHOR_MS = Date.UTC(2026, 10, 1);
export const SPAN_MS = 3 * 365 * 86_400_000;
export const DAY_MS = 86_400_000;

/** The helper functions the expressions use; plain SQL functions, so PostgreSQL inlines them. */
export const HELPER_FUNCTIONS_SQL = [
  `create schema if not exists bench`,
  // A deterministic 31-bit hash of (n, salt): the generator's only source of "randomness".
  `create or replace function bench.h(n bigint, salt int) returns bigint
     language sql immutable parallel safe
     as $$ select hashint8(n * 7919 + salt)::bigint & 2147483647 $$`,
];

export function lit(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function h(n: string, salt: number): string {
  return `bench.h(${n}, ${salt})`;
}

/** True with the given probability in per mille. */
export function chance(perMille: number, n: string, salt: number): string {
  return `(${h(n, salt)} % 1000 < ${perMille})`;
}

/** One of the values, uniformly. */
export function pick(values: readonly string[], n: string, salt: number): string {
  return `(array[${values.map(lit).join(", ")}]::text[])[1 + ${h(n, salt)} % ${values.length}]`;
}

/** One of the values with its weight: a constant array holding each value `weight` times. */
export function weighted(values: Weighted, n: string, salt: number): string {
  const expanded = values.flatMap(([value, w]) => Array.from({ length: w }, () => value));
  return pick(expanded, n, salt);
}

/** Independent tags, each with its probability in per mille; an empty array when none. */
export function tagArray(tags: Weighted, n: string, salt: number): string {
  const items = tags.map(
    ([tag, perMille], i) => `case when ${chance(perMille, n, salt + i)} then ${lit(tag)} end`,
  );
  return `array_remove(array[${items.join(", ")}]::text[], null)`;
}

export function timestampOf(ms: string): string {
  return `to_timestamp((${ms})::double precision / 1000)`;
}

/** Money: a whole number of dollars in [min, min + range) plus cents. */
export function money(min: number, range: number, n: string, salt: number): string {
  return `round((${min} + ${h(n, salt)} % ${range} + (${h(n, salt + 1)} % 100) / 100.0)::numeric, 2)`;
}

/**
 * Creation time of row n of N: spread evenly over the three years before ANCHOR_MS, in the order
 * of n (so ids and created_at sort together, as lib/ids.ts makes them), with jitter inside a step.
 */
export function createdMs(count: number, n: string, salt: number): string {
  const step = Math.max(1, Math.floor(SPAN_MS / Math.max(1, count)));
  return `(${ANCHOR_MS}::bigint - (${count} - ${n})::bigint * ${step} - ${h(n, salt)} % ${step})`;
}

/**
 * An id in the shape lib/ids.ts makes (`<prefix>_` + 26 lower-case characters, time first), in
 * hex, which is a subset of the Crockford alphabet: 12 digits of time, 2 of tenant, 12 of n.
 */
export function recordId(prefix: string, tenant: number, ms: string, n: string): string {
  const tenantHex = tenant.toString(16).padStart(2, "0");
  return `(${lit(`${prefix}_`)} || lpad(to_hex(${ms}), 12, '0') || '${tenantHex}' || lpad(to_hex(${n}), 12, '0'))`;
}

/** The same id computed in TypeScript (fixtures and tests). */
export function recordIdOf(prefix: string, tenant: number, ms: number, n: number): string {
  return `${prefix}_${ms.toString(16).padStart(12, "0")}${tenant.toString(16).padStart(2, "0")}${n
    .toString(16)
    .padStart(12, "0")}`;
}

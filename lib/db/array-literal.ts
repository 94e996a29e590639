import "server-only";

// PostgreSQL array literals, for the imports: a batch's rows travel as one text parameter per
// column (`unnest`), far from a statement's 65,535 bind parameters, whatever the batch's size.

const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/** Text quoted for a PostgreSQL array literal. */
function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPED, "\\$&")}"` : `"${text}"`;
}

/** An element of a PostgreSQL array literal: always quoted, NULL for null. */
export function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return quoted(value);
  if (typeof value === "number") return `"${value}"`;
  if (typeof value === "boolean") return value ? '"t"' : '"f"';
  if (value instanceof Date) return `"${value.toISOString()}"`;
  if (Array.isArray(value)) return quoted(arrayLiteral(value));
  return quoted(typeof value === "object" ? JSON.stringify(value) : String(value));
}

/** A PostgreSQL array literal of these values. */
export function arrayLiteral(values: readonly unknown[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) out += (i === 0 ? "" : ",") + arrayElement(values[i]);
  return `${out}}`;
}

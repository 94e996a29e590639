// What an update changes, field by field, and the request that undoes it. Records are compared in
// a flat view, since get-by-id and upsert answers name some fields differently.

/** A field the comparison shows: its key in the flat view, its label, its create-or-update body name. */
export interface ChangeField {
  key: string;
  label: string;
  /** The body field that sets it (default: key). */
  body?: string;
}

export interface FieldChange {
  key: string;
  label: string;
  body: string;
  before: unknown;
  after: unknown;
}

/** A flat record: field → value (string, number, boolean, string[] or nothing). */
export type RecordView = Record<string, unknown>;

/** Nothing, "" and [] are all "no value". */
function normalized(value: unknown): unknown {
  if (value === undefined || value === "") return null;
  if (Array.isArray(value) && value.length === 0) return null;
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(normalized(a)) === JSON.stringify(normalized(b));

/** The fields whose value differs between `before` and `after`, in the order of `fields`. */
export function recordChanges(
  fields: readonly ChangeField[],
  before: RecordView,
  after: RecordView,
): FieldChange[] {
  return fields
    .filter((field) => !same(before[field.key], after[field.key]))
    .map((field) => ({
      key: field.key,
      label: field.label,
      body: field.body ?? field.key,
      before: before[field.key],
      after: after[field.key],
    }));
}

/** A value as the comparison shows it. */
export function displayValue(value: unknown): string {
  const v = normalized(value);
  if (v === null) return "—";
  if (Array.isArray(v)) return v.join(", ");
  if (typeof v === "boolean") return v ? "Yes" : "No";
  return String(v);
}

/**
 * The upsert body that undoes `changes` on record `id` (null clears). Updates merge tags, so the
 * added ones go through `remove_tags`, which restores the previous list and order.
 */
export function undoBody(id: string, changes: readonly FieldChange[]): Record<string, unknown> {
  const body: Record<string, unknown> = { id };
  for (const change of changes) {
    if (change.key === "tags") {
      const before = new Set((change.before as string[] | undefined) ?? []);
      const added = ((change.after as string[] | undefined) ?? []).filter((tag) => !before.has(tag));
      if (added.length > 0) body.remove_tags = added;
    } else {
      body[change.body] = normalized(change.before);
    }
  }
  return body;
}

/** A field whose change on a matched record the user must choose, with its checkbox's words. */
export interface AskFirstField {
  key: string;
  /** The checkbox's label, given the new value as shown ("Also make Jake Turner the owner"). */
  choice: (after: string) => string;
  /** What happens unticked, given the current value as shown. */
  note: (before: string) => string;
}

/** How the comparison shows a field's value (a stage's label, an owner's name, a local date). */
export type FormatValue = (key: string, value: unknown) => string;

/**
 * The update as the user chose it: the changes to `askFirst` fields (an owner, which may belong to
 * someone else's record) apply only when `chosen`; the others are left out of the body and keep
 * their existing value in the view of the result.
 */
export function chosenUpdate<Body extends object>(
  changes: readonly FieldChange[],
  askFirst: readonly string[],
  chosen: ReadonlySet<string>,
  body: Body,
  result: RecordView,
): { body: Body; result: RecordView; declined: FieldChange[] } {
  const declined = changes.filter((c) => askFirst.includes(c.key) && !chosen.has(c.key));
  const nextBody: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const nextResult: RecordView = { ...result };
  for (const change of declined) {
    delete nextBody[change.body];
    nextResult[change.key] = change.before;
  }
  return { body: nextBody as Body, result: nextResult, declined };
}

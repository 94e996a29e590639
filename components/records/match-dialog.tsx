"use client";

import { Button, Checkbox, Dialog } from "@/components/ui";
import {
  type AskFirstField,
  type ChangeField,
  type FieldChange,
  type FormatValue,
  type RecordView,
} from "./record-changes";
import { RECORD_WORDS, type RecordKind } from "./record-kind";

// The question "New" asks when the record matches an existing one (E1): both records field by
// field, the fields the update would change, and the three ways on. Its default button changes
// nothing: Enter must never overwrite someone's record.

export type MatchChoice = "update" | "separate" | "back";

const MATCH_WORDS = { id: "id", phone: "phone number", email: "email address" } as const;

export function MatchDialog({
  kind,
  name,
  matchedOn,
  existing,
  result,
  fields,
  changes,
  asks,
  chosen,
  onChooseField,
  format,
  busy,
  onChoose,
}: {
  kind: RecordKind;
  name: string;
  matchedOn: "id" | "phone" | "email" | null;
  existing: RecordView;
  /** The record after the update as the user has chosen it so far. */
  result: RecordView;
  fields: readonly ChangeField[];
  /** What the update would change, as chosen so far. */
  changes: readonly FieldChange[];
  /** Changes the update makes only when ticked, with their checkbox words. */
  asks: readonly { change: FieldChange; field: AskFirstField }[];
  chosen: ReadonlySet<string>;
  onChooseField: (key: string, chosen: boolean) => void;
  format: FormatValue;
  busy: MatchChoice | null;
  onChoose: (choice: MatchChoice) => void;
}) {
  const words = RECORD_WORDS[kind];
  const changed = new Set(changes.map((c) => c.key));
  const asked = new Set(asks.map((a) => a.change.key));
  // The existing record's filled fields, and any field the update would (or could) fill.
  const rows = fields.filter(
    (f) => changed.has(f.key) || asked.has(f.key) || format(f.key, existing[f.key]) !== "—",
  );
  const label = name || `this ${words.one}`;
  return (
    <Dialog
      open
      size="lg"
      onClose={() => (busy ? undefined : onChoose("back"))}
      title={`A ${words.one} with this ${MATCH_WORDS[matchedOn ?? "phone"]} already exists`}
      description={`Saving would update ${label} instead of creating a new ${words.one}.`}
      footer={
        <>
          <Button variant="ghost" onClick={() => onChoose("back")} disabled={busy !== null} data-autofocus>
            Go back
          </Button>
          <Button variant="secondary" onClick={() => onChoose("separate")} loading={busy === "separate"}>
            Create a separate {words.one}
          </Button>
          <Button onClick={() => onChoose("update")} loading={busy === "update"}>
            Update {label}
          </Button>
        </>
      }
    >
      <p className="mb-3 text-sm text-slate-700" data-testid="match-summary">
        {changes.length === 0
          ? "The update would change nothing."
          : `The update would change ${changes.length} field${changes.length === 1 ? "" : "s"}: ${changes
              .map((c) => c.label)
              .join(", ")}.`}
      </p>
      {asks.map(({ change, field }) => (
        <Checkbox
          key={change.key}
          className="mb-3 rounded-lg bg-amber-50 p-3 ring-1 ring-amber-200"
          label={field.choice(format(change.key, change.after))}
          description={field.note(format(change.key, change.before))}
          checked={chosen.has(change.key)}
          disabled={busy !== null}
          onChange={(event) => onChooseField(change.key, event.target.checked)}
        />
      ))}
      <div className="rounded-lg text-sm ring-1 ring-slate-200">
        {/* Column heads for wide screens; each value also names its column for screen readers and phones. */}
        <div
          aria-hidden="true"
          className="hidden grid-cols-[9rem_1fr_1fr] gap-3 rounded-t-lg bg-slate-50 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600 sm:grid"
        >
          <span>Field</span>
          <span>Existing {words.one}</span>
          <span>After the update</span>
        </div>
        <ul aria-label="Existing record and the update" className="divide-y divide-slate-100">
          {rows.map((field) => {
            const isChanged = changed.has(field.key);
            return (
              <li
                key={field.key}
                data-field={field.key}
                className={`grid gap-1 px-3 py-2 sm:grid-cols-[9rem_1fr] sm:gap-3 ${isChanged ? "bg-amber-50" : ""}`}
              >
                <span className="font-medium text-slate-800">
                  {field.label}
                  {isChanged ? <span className="sr-only"> (changes)</span> : null}
                </span>
                {/* Before and after stack on a phone, each after its name; side by side from the small breakpoint. */}
                <dl className="grid gap-1 sm:grid-cols-2 sm:gap-3">
                  <div className="flex min-w-0 gap-2 sm:block">
                    <dt className="w-28 shrink-0 text-slate-600 sm:sr-only">Existing {words.one}</dt>
                    <dd className="min-w-0 break-words text-slate-700">
                      {format(field.key, existing[field.key])}
                    </dd>
                  </div>
                  <div className="flex min-w-0 gap-2 sm:block">
                    <dt className="w-28 shrink-0 text-slate-600 sm:sr-only">After the update</dt>
                    <dd
                      className={
                        isChanged
                          ? "min-w-0 font-semibold break-words text-slate-900"
                          : "min-w-0 break-words text-slate-700"
                      }
                    >
                      {format(field.key, result[field.key])}
                    </dd>
                  </div>
                </dl>
              </li>
            );
          })}
        </ul>
      </div>
    </Dialog>
  );
}

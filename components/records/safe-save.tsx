"use client";

import { useState } from "react";
import { Button, Dialog, useToast } from "@/components/ui";
import {
  type ChangeField,
  type FieldChange,
  type RecordView,
  displayValue,
  recordChanges,
  undoBody,
} from "./record-changes";
import { RECORD_WORDS, type RecordKind } from "./record-kind";

// The save flow of the lead and customer forms (E1, issue #41): "New" dry-runs first and asks what
// to do on a phone or email match; every update then offers a one-request Undo.

/**
 * A dry run's answer (LeadDryRunResponse, CustomerDryRunResponse): `dry_run: true` tells it from a
 * save's answer; `result` has no id when the save would create the record.
 */
export interface DryRunAnswer {
  dry_run: true;
  matched_on: "id" | "phone" | "email" | null;
  existing: Record<string, unknown> | null;
  result: Record<string, unknown> & { id?: string };
}

export interface SafeSaveOptions<Body, Result> {
  kind: RecordKind;
  /** The fields the comparison and Undo cover, in display order. */
  fields: readonly ChangeField[];
  /** A record (get-by-id or create-or-update answer) as a flat view over `fields`' keys. */
  viewOf: (record: Record<string, unknown>) => RecordView;
  nameOf: (record: Record<string, unknown>) => string;
  dryRun: (body: Body) => Promise<DryRunAnswer>;
  save: (body: Body) => Promise<Result>;
  /** The saved record inside a save's result. */
  recordOf: (result: Result) => Record<string, unknown> & { id: string };
  /** The record being edited (edit form); absent for "New". */
  editing?: Record<string, unknown>;
  /**
   * Values a new record starts with that the user did not choose (a new lead's first stage): sent
   * when a record is created, never applied to a matched record the user chose to update.
   */
  createDefaults?: Partial<Body>;
  /** After Undo: the record as restored (e.g. to reset the form to it). */
  onUndone?: (result: Result) => void;
}

type Choice = "update" | "separate" | "back";

interface Pending<Body> {
  body: Body;
  answer: DryRunAnswer & { existing: Record<string, unknown> };
  choose: (choice: Choice) => void;
}

/** How long the Undo button stays. */
const UNDO_MS = 8000;

export function useSafeSave<Body extends object, Result>(options: SafeSaveOptions<Body, Result>) {
  const { kind, fields, viewOf, nameOf } = options;
  const words = RECORD_WORDS[kind];
  const { notify } = useToast();
  const [pending, setPending] = useState<Pending<Body> | null>(null);
  const [busy, setBusy] = useState<Choice | null>(null);
  // While the dry run is asked (the form's button shows it is saving).
  const [checking, setChecking] = useState(false);

  /** After an update: what changed, with Undo. */
  function offerUndo(before: Record<string, unknown>, result: Result) {
    const record = options.recordOf(result);
    const changes = recordChanges(fields, viewOf(before), viewOf(record));
    const name = nameOf(record) || `the ${words.one}`;
    if (changes.length === 0) {
      notify({ title: `${name}: nothing changed`, tone: "info" });
      return;
    }
    notify({
      title: `Updated ${name}`,
      description: `Changed: ${changes.map((c) => c.label).join(", ")}.`,
      durationMs: UNDO_MS,
      action: { label: "Undo", onClick: () => void undo(record.id, name, changes) },
    });
  }

  async function undo(id: string, name: string, changes: FieldChange[]) {
    try {
      const result = await options.save(undoBody(id, changes) as Body);
      options.onUndone?.(result);
      notify({
        title: `Undone: ${name} restored`,
        description: `Restored: ${changes.map((c) => c.label).join(", ")}.`,
        tone: "info",
      });
    } catch {
      notify({ title: `Could not undo the changes to ${name}`, tone: "danger" });
    }
  }

  /**
   * The form's save: resolves with the save's result, or null when the user went back to the
   * form; rejects with the API's error (the form shows it next to its fields).
   */
  async function save(body: Body): Promise<Result | null> {
    const { editing } = options;
    if (editing) {
      const result = await options.save(body);
      offerUndo(editing, result);
      return result;
    }
    setChecking(true);
    const answer = await options.dryRun(body).finally(() => setChecking(false));
    const created = { ...options.createDefaults, ...body };
    if (answer.matched_on === null || answer.existing === null) return options.save(created);
    const existing = answer.existing;
    return new Promise<Result | null>((resolve, reject) => {
      const choose = async (choice: Choice) => {
        if (choice === "back") {
          setPending(null);
          return resolve(null);
        }
        setBusy(choice);
        try {
          const result = await options.save(choice === "separate" ? { ...created, match: "none" } : body);
          if (choice === "update") offerUndo(existing, result);
          resolve(result);
        } catch (error) {
          reject(error);
        } finally {
          setBusy(null);
          setPending(null);
        }
      };
      setPending({ body, answer: { ...answer, existing }, choose: (c) => void choose(c) });
    });
  }

  const dialog = pending ? (
    <MatchDialog
      kind={kind}
      name={nameOf(pending.answer.existing)}
      matchedOn={pending.answer.matched_on}
      existing={viewOf(pending.answer.existing)}
      result={viewOf(pending.answer.result)}
      fields={fields}
      busy={busy}
      onChoose={pending.choose}
    />
  ) : null;

  return { save, dialog, checking };
}

const MATCH_WORDS = { id: "id", phone: "phone number", email: "email address" } as const;

/** The existing record beside the new values, the fields the update would change, and the three ways on. */
function MatchDialog({
  kind,
  name,
  matchedOn,
  existing,
  result,
  fields,
  busy,
  onChoose,
}: {
  kind: RecordKind;
  name: string;
  matchedOn: "id" | "phone" | "email" | null;
  existing: RecordView;
  result: RecordView;
  fields: readonly ChangeField[];
  busy: Choice | null;
  onChoose: (choice: Choice) => void;
}) {
  const words = RECORD_WORDS[kind];
  const changes = recordChanges(fields, existing, result);
  const changed = new Set(changes.map((c) => c.key));
  // The existing record's filled fields, and any field the update would fill.
  const rows = fields.filter((f) => changed.has(f.key) || displayValue(existing[f.key]) !== "—");
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
          <Button variant="ghost" onClick={() => onChoose("back")} disabled={busy !== null}>
            Go back
          </Button>
          <Button variant="secondary" onClick={() => onChoose("separate")} loading={busy === "separate"}>
            Create a separate {words.one}
          </Button>
          <Button onClick={() => onChoose("update")} loading={busy === "update"} data-autofocus>
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
      <div className="overflow-x-auto rounded-lg ring-1 ring-slate-200">
        <table className="w-full text-left text-sm" aria-label="Existing record and the update">
          <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2">
                Field
              </th>
              <th scope="col" className="px-3 py-2">
                Existing {words.one}
              </th>
              <th scope="col" className="px-3 py-2">
                After the update
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((field) => {
              const isChanged = changed.has(field.key);
              return (
                <tr key={field.key} className={isChanged ? "bg-amber-50" : undefined}>
                  <th scope="row" className="px-3 py-2 font-medium text-slate-700">
                    {field.label}
                    {isChanged ? <span className="sr-only"> (changes)</span> : null}
                  </th>
                  <td className="px-3 py-2 break-words text-slate-600">
                    {displayValue(existing[field.key])}
                  </td>
                  <td
                    className={
                      isChanged
                        ? "px-3 py-2 font-semibold break-words text-slate-900"
                        : "px-3 py-2 break-words text-slate-600"
                    }
                  >
                    {displayValue(result[field.key])}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Dialog>
  );
}

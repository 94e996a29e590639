"use client";

import { useState } from "react";
import { useToast } from "@/components/ui";
import { MatchDialog, type MatchChoice } from "./match-dialog";
import {
  type AskFirstField,
  type ChangeField,
  type FieldChange,
  type FormatValue,
  type RecordView,
  chosenUpdate,
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
  /** A value as the match dialog shows it (labels, names, local dates); default: as stored. */
  formatValue?: FormatValue;
  /**
   * Fields a matched update changes only when the user ticks them (a lead's owner): unticked,
   * the request leaves them out.
   */
  askFirst?: readonly AskFirstField[];
}

type Choice = MatchChoice;

interface Pending<Body> {
  body: Body;
  answer: DryRunAnswer & { existing: Record<string, unknown> };
  choose: (choice: Choice, chosen: ReadonlySet<string>) => void;
}

/** How long the Undo button stays. */
const UNDO_MS = 8000;

export function useSafeSave<Body extends object, Result>(options: SafeSaveOptions<Body, Result>) {
  const { kind, fields, viewOf, nameOf } = options;
  const words = RECORD_WORDS[kind];
  const { notify } = useToast();
  const [pending, setPending] = useState<Pending<Body> | null>(null);
  // The ask-first fields the user ticked in the match dialog.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const askFirst = options.askFirst ?? [];
  const askKeys = askFirst.map((f) => f.key);
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
      const choose = async (choice: Choice, ticked: ReadonlySet<string>) => {
        if (choice === "back") {
          setPending(null);
          return resolve(null);
        }
        setBusy(choice);
        try {
          // An update sends only the ask-first changes the user ticked.
          const update = () => {
            const changes = recordChanges(fields, viewOf(existing), viewOf(answer.result));
            return chosenUpdate(changes, askKeys, ticked, body, viewOf(answer.result)).body;
          };
          const result = await options.save(choice === "separate" ? { ...created, match: "none" } : update());
          if (choice === "update") offerUndo(existing, result);
          resolve(result);
        } catch (error) {
          reject(error);
        } finally {
          setBusy(null);
          setPending(null);
        }
      };
      setChosen(new Set());
      setPending({ body, answer: { ...answer, existing }, choose: (c, t) => void choose(c, t) });
    });
  }

  const format = options.formatValue ?? ((_key: string, value: unknown) => displayValue(value));
  let dialog: React.ReactNode = null;
  if (pending) {
    const existing = viewOf(pending.answer.existing);
    const full = viewOf(pending.answer.result);
    const all = recordChanges(fields, existing, full);
    const shown = chosenUpdate(all, askKeys, chosen, {}, full).result;
    dialog = (
      <MatchDialog
        kind={kind}
        name={nameOf(pending.answer.existing)}
        matchedOn={pending.answer.matched_on}
        existing={existing}
        result={shown}
        fields={fields}
        changes={recordChanges(fields, existing, shown)}
        asks={askFirst.flatMap((field) => {
          const change = all.find((c) => c.key === field.key);
          return change ? [{ change, field }] : [];
        })}
        chosen={chosen}
        onChooseField={(key, on) =>
          setChosen((current) => {
            const next = new Set(current);
            if (on) next.add(key);
            else next.delete(key);
            return next;
          })
        }
        format={format}
        busy={busy}
        onChoose={(choice) => pending.choose(choice, chosen)}
      />
    );
  }

  return { save, dialog, checking };
}

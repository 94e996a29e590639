"use client";

import { useState } from "react";
import { Button, Dialog, Field, Input, Notice, Select, type SelectOption } from "@/components/ui";
import { BulkActionsBar, BulkOutcome } from "@/components/records/bulk-bar";
import type { BulkSelection } from "@/components/records/record-selection";
import { errorMessage } from "@/components/ui/error-state";
import { parseTagList } from "@/lib/values/normalize";
import {
  type BulkLeadsInput,
  type BulkLeadsResponse,
  useAssignableUsers,
  useBulkChangeLeads,
  useUndoBulkChange,
} from "@/lib/query/lead-owners";
import { isEmptyLeadFilter } from "@/lib/schemas/lead-bulk";
import { ROLE_LABELS } from "@/lib/values/roles";

// The leads table's bulk bar: ticked rows or every lead matching the filters, each action
// confirmed with its count, then a notice with Undo.

type ActionKind = "assign" | "set_stage" | "add_tags" | "archive" | "unarchive";

const ACTION_BUTTONS: { kind: ActionKind; label: string }[] = [
  { kind: "assign", label: "Assign…" },
  { kind: "set_stage", label: "Change stage…" },
  { kind: "add_tags", label: "Add tag…" },
  { kind: "archive", label: "Archive…" },
  { kind: "unarchive", label: "Unarchive…" },
];

/** The filters of the list as POST /leads/bulk takes them. */
export interface BulkFilter {
  search?: string;
  note?: string;
  stage?: string;
  tags?: string;
  archived?: boolean;
  assigned_to?: string;
  territory_id?: string;
  follow_up_from?: string;
  follow_up_to?: string;
  open?: boolean;
}

const plural = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "lead" : "leads"}`;

function filterBody(filter: BulkFilter): NonNullable<BulkLeadsInput["filter"]> {
  return {
    search: filter.search || undefined,
    note: filter.note || undefined,
    stage: filter.stage || undefined,
    tags: filter.tags ? parseTagList(filter.tags) : undefined,
    archived: filter.archived ?? false,
    assigned_to: filter.assigned_to || undefined,
    territory_id: filter.territory_id || undefined,
    follow_up_from: filter.follow_up_from || undefined,
    follow_up_to: filter.follow_up_to || undefined,
    open: filter.open || undefined,
  };
}

/** The selection of every lead matching the list's filters: with none, every lead, said with `all`. */
function filterSelection(filter: BulkFilter): Pick<BulkLeadsInput, "filter" | "all"> {
  const body = filterBody(filter);
  return isEmptyLeadFilter(body) ? { filter: body, all: true } : { filter: body };
}

export function LeadBulkBar({
  selection,
  total,
  pageCount,
  filter,
  stageOptions,
  onSelectAllMatching,
  onClear,
}: {
  selection: BulkSelection;
  /** Leads matching the filters. */
  total: number;
  /** Rows on this page. */
  pageCount: number;
  filter: BulkFilter;
  stageOptions: readonly SelectOption[];
  onSelectAllMatching: () => void;
  onClear: () => void;
}) {
  const [action, setAction] = useState<ActionKind | null>(null);
  const [done, setDone] = useState<{ result: BulkLeadsResponse; what: string } | null>(null);
  const [undone, setUndone] = useState<{ restored: number; skipped: number } | null>(null);
  const bulk = useBulkChangeLeads();
  const undo = useUndoBulkChange();
  const count = selection.allMatching ? total : selection.ids.length;

  const outcome = done ? (
    <BulkOutcome
      what={done.what}
      changed={plural(done.result.changed)}
      restored={undone === null ? null : plural(undone.restored)}
      skipped={undone && undone.skipped > 0 ? plural(undone.skipped) : null}
      undoable
      undo={undo}
      onUndo={async () => setUndone(await undo.mutateAsync(done.result.id))}
      onDismiss={() => setDone(null)}
    />
  ) : null;

  if (count === 0) return outcome;

  async function apply(body: BulkLeadsInput["action"], what: string) {
    const selected = selection.allMatching ? filterSelection(filter) : { ids: selection.ids };
    const result = await bulk.mutateAsync({ ...selected, action: body });
    setAction(null);
    setUndone(null);
    setDone({ result, what });
    onClear();
  }

  return (
    <>
      {outcome}
      <BulkActionsBar
        selected={plural(count)}
        actions={ACTION_BUTTONS.map((b) => (
          <Button key={b.kind} variant="secondary" size="sm" onClick={() => setAction(b.kind)}>
            {b.label}
          </Button>
        ))}
      >
        {!selection.allMatching && selection.ids.length === pageCount && total > pageCount ? (
          <Button variant="ghost" size="sm" onClick={onSelectAllMatching}>
            Select all {plural(total)} matching the filters
          </Button>
        ) : null}
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear selection
        </Button>
      </BulkActionsBar>
      {action ? (
        <BulkDialog
          kind={action}
          count={count}
          stageOptions={stageOptions}
          saving={bulk.isPending}
          error={bulk.error}
          onCancel={() => {
            setAction(null);
            bulk.reset();
          }}
          onConfirm={apply}
        />
      ) : null}
    </>
  );
}

/** The confirmation of one action, with its value (owner, stage, tag) to choose first. */
function BulkDialog({
  kind,
  count,
  stageOptions,
  saving,
  error,
  onCancel,
  onConfirm,
}: {
  kind: ActionKind;
  count: number;
  stageOptions: readonly SelectOption[];
  saving: boolean;
  error: unknown;
  onCancel: () => void;
  onConfirm: (action: BulkLeadsInput["action"], what: string) => void;
}) {
  const users = useAssignableUsers();
  const [value, setValue] = useState("");
  const leads = plural(count);
  const userName = (id: string) => users.data?.find((u) => u.id === id)?.name ?? "a user";
  const spec = {
    assign: {
      title: `Assign ${leads}`,
      confirm: `Assign ${leads}`,
      action: { type: "assign" as const, assigned_to: value || null },
      what: value ? `Assigned to ${userName(value)}` : "Unassigned",
    },
    set_stage: {
      title: `Change the stage of ${leads}`,
      confirm: `Change ${leads}`,
      action: { type: "set_stage" as const, stage: value || null },
      what: "Stage changed",
    },
    add_tags: {
      title: `Add a tag to ${leads}`,
      confirm: `Tag ${leads}`,
      action: { type: "add_tags" as const, tags: parseTagList(value) },
      what: "Tagged",
    },
    archive: {
      title: `Archive ${leads}?`,
      confirm: `Archive ${leads}`,
      action: { type: "archive" as const },
      what: "Archived",
    },
    unarchive: {
      title: `Unarchive ${leads}?`,
      confirm: `Unarchive ${leads}`,
      action: { type: "unarchive" as const },
      what: "Unarchived",
    },
  }[kind];
  const needsValue = kind === "add_tags" && parseTagList(value).length === 0;

  return (
    <Dialog
      open
      onClose={onCancel}
      title={spec.title}
      description="You can undo this right after."
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            loading={saving}
            disabled={needsValue}
            variant={kind === "archive" ? "danger" : "primary"}
            onClick={() => onConfirm(spec.action, spec.what)}
          >
            {spec.confirm}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {kind === "assign" ? (
          <Field label="Owner">
            <Select
              value={value}
              onChange={(e) => setValue(e.target.value)}
              placeholder="Unassigned"
              options={(users.data ?? []).map((u) => ({
                value: u.id,
                label: `${u.name} (${ROLE_LABELS[u.role]})`,
              }))}
              data-autofocus
            />
          </Field>
        ) : null}
        {kind === "set_stage" ? (
          <Field label="Stage">
            <Select
              value={value}
              onChange={(e) => setValue(e.target.value)}
              placeholder="No stage"
              options={stageOptions}
              data-autofocus
            />
          </Field>
        ) : null}
        {kind === "add_tags" ? (
          <Field label="Tag" hint="Several: separate them with commas.">
            <Input value={value} onChange={(e) => setValue(e.target.value)} maxLength={1000} data-autofocus />
          </Field>
        ) : null}
        {error ? <Notice tone="danger">{errorMessage(error)}</Notice> : null}
      </div>
    </Dialog>
  );
}

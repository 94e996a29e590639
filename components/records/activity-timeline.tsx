"use client";

import Link from "next/link";
import { type FormEvent, type KeyboardEvent, useId, useState } from "react";
import { useStageDisplay } from "@/components/leads/stage-badge";
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  ErrorState,
  Field,
  LoadingBlock,
  Textarea,
} from "@/components/ui";
import { formatDateTime, formatRelativeTime } from "@/lib/format";
import { type ActivityEntry, useActivity, useAddNote } from "@/lib/query/activity";
import { ApiClientError } from "@/lib/query/api-client";
import { useAssignableUsers } from "@/lib/query/lead-owners";
import { useHasScope } from "@/lib/query/session";
import { NOTE_MAX_LENGTH } from "@/lib/schemas/activity";
import { type ChangeLine, type ValueNames, changeText, describeChange } from "./activity-changes";
import { RECORD_WORDS, type RecordKind, recordHref } from "./record-kind";

/**
 * The "Activity" card of a lead or customer page (E3): history newest first and a note box for
 * writers. The page refreshes it after each of its own saves (useInvalidateActivity).
 */
export function ActivityTimeline({
  kind,
  id,
  canWrite,
  names = PLAIN_NAMES,
}: {
  kind: RecordKind;
  id: string;
  /** The record's write scope: shows the note box. */
  canWrite: boolean;
  /** How stage keys and user ids read (a lead's page: useLeadValueNames). */
  names?: ValueNames;
}) {
  const activity = useActivity(kind, id);
  // A conversion links the other record, for those who may open it (a technician reads no leads).
  const canOpenRelated = useHasScope(kind === "lead" ? "customers:read" : "leads:read");
  const headingId = useId();
  const entries = activity.data?.pages.flatMap((page) => page.data) ?? [];
  const total = activity.data?.pages[0]?.pagination.total ?? 0;

  return (
    <Card aria-labelledby={headingId} className="mt-4">
      <CardHeader
        id={headingId}
        title="Activity"
        description={
          activity.isSuccess
            ? `${total.toLocaleString("en-US")} entr${total === 1 ? "y" : "ies"}, newest first.`
            : undefined
        }
      />
      <CardBody className="space-y-4">
        {canWrite ? <NoteBox kind={kind} id={id} /> : null}
        {activity.isPending ? (
          <LoadingBlock label="Loading the activity" />
        ) : activity.isError && entries.length === 0 ? (
          <ErrorState
            error={activity.error}
            title="Could not load the activity"
            onRetry={() => void activity.refetch()}
          />
        ) : entries.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing recorded yet.</p>
        ) : (
          <ol className="space-y-0" aria-label={`Activity of this ${RECORD_WORDS[kind].one}`}>
            {entries.map((entry) => (
              <ActivityItem
                key={entry.id}
                kind={kind}
                entry={entry}
                names={names}
                canOpenRelated={canOpenRelated}
              />
            ))}
          </ol>
        )}
        {activity.hasNextPage ? (
          <Button
            variant="secondary"
            size="sm"
            loading={activity.isFetchingNextPage}
            onClick={() => void activity.fetchNextPage()}
          >
            Show older
          </Button>
        ) : null}
      </CardBody>
    </Card>
  );
}

const PLAIN_NAMES: ValueNames = { stageLabel: (key) => key, userName: (userId) => userId };

/** A lead's stage labels from the pipeline and its owners' names from the users list. */
export function useLeadValueNames(): ValueNames {
  const stageDisplay = useStageDisplay();
  const users = useAssignableUsers();
  return {
    stageLabel: (key) => stageDisplay(key).label,
    userName: (userId) => users.data?.find((u) => u.id === userId)?.name ?? "Former user",
  };
}

const TYPE_WORDS: Record<ActivityEntry["type"], (kind: RecordKind) => string> = {
  created: (kind) => `created the ${RECORD_WORDS[kind].one}`,
  updated: () => "changed",
  archived: (kind) => `archived the ${RECORD_WORDS[kind].one}`,
  unarchived: (kind) => `unarchived the ${RECORD_WORDS[kind].one}`,
  note: () => "added a note",
  converted: (kind) =>
    kind === "lead" ? "converted the lead to a customer" : "created the customer from a lead",
};

const ACTOR_SUFFIX: Record<ActivityEntry["actor"]["kind"], string> = {
  user: "",
  api_key: " (API key)",
  import: "",
};

const DOT: Record<ActivityEntry["type"], string> = {
  created: "bg-emerald-500",
  updated: "bg-brand-500",
  archived: "bg-slate-400",
  unarchived: "bg-slate-400",
  note: "bg-amber-500",
  converted: "bg-violet-500",
};

function ActivityItem({
  kind,
  entry,
  names,
  canOpenRelated,
}: {
  kind: RecordKind;
  entry: ActivityEntry;
  names: ValueNames;
  canOpenRelated: boolean;
}) {
  // A conversion's own changes (stage, customer_id) say what its sentence and link already say.
  const lines =
    entry.type === "converted" ? [] : entry.changes.map((change) => describeChange(kind, change, names));
  const related =
    entry.related_id && canOpenRelated
      ? { kind: (kind === "lead" ? "customer" : "lead") as RecordKind, id: entry.related_id }
      : null;
  return (
    <li className="relative border-l border-slate-200 pb-4 pl-5 last:pb-0" data-testid="activity-entry">
      <span
        aria-hidden="true"
        className={`absolute top-1.5 -left-[5px] size-2.5 rounded-full ring-2 ring-white ${DOT[entry.type]}`}
      />
      <p className="text-sm text-slate-700">
        <span className="font-medium text-slate-900">
          {entry.actor.name}
          {ACTOR_SUFFIX[entry.actor.kind]}
        </span>{" "}
        {TYPE_WORDS[entry.type](kind)}
        {entry.type === "updated" && lines.length === 0 ? ` the ${RECORD_WORDS[kind].one}` : null}
        {" · "}
        <time dateTime={entry.at} title={formatDateTime(entry.at)} className="text-slate-500">
          {formatRelativeTime(entry.at)}
        </time>
      </p>
      {related ? (
        <p className="mt-1 text-sm">
          <Link href={recordHref(related.kind, related.id)} className="text-brand-700 underline">
            {related.kind === "customer" ? "Open the customer" : "Open the lead"}
          </Link>
        </p>
      ) : null}
      {lines.length > 0 ? (
        <ul className="mt-1 space-y-0.5 text-sm text-slate-700">
          {lines.map((line) => (
            <li key={line.field} className="[overflow-wrap:anywhere]">
              <ChangeText line={line} />
            </li>
          ))}
        </ul>
      ) : null}
      {entry.note !== null ? (
        <p className="mt-1 rounded-md bg-slate-50 px-3 py-2 text-sm whitespace-pre-line text-slate-800 ring-1 ring-slate-200 [overflow-wrap:anywhere]">
          {entry.note}
        </p>
      ) : null}
    </li>
  );
}

/** "Stage: New → Contacted"; the text itself is changeText's, for screen readers and tests alike. */
function ChangeText({ line }: { line: ChangeLine }) {
  if (line.kind === "tags") return changeText(line);
  return (
    <>
      <span className="font-medium text-slate-900">{line.label}:</span>{" "}
      <span className="text-slate-600">{line.from}</span> <span aria-label="to">→</span> {line.to}
    </>
  );
}

/** The note box: a textarea and "Add note" (Ctrl/Cmd+Enter sends); errors under the box. */
function NoteBox({ kind, id }: { kind: RecordKind; id: string }) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const add = useAddNote(kind, id);

  async function send() {
    if (add.isPending) return;
    if (!text.trim()) {
      setError("Write a note first");
      return;
    }
    setError(undefined);
    try {
      await add.mutateAsync(text);
      setText("");
    } catch (failure) {
      setError(
        failure instanceof ApiClientError
          ? (failure.fieldErrors().body ?? failure.message)
          : "Could not add the note. Please try again.",
      );
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add a note" className="space-y-2">
      <Field label="Note" error={error} hint="Ctrl+Enter (⌘+Enter on a Mac) adds it.">
        <Textarea
          name="note"
          rows={3}
          value={text}
          maxLength={NOTE_MAX_LENGTH}
          onChange={(event) => {
            setText(event.target.value);
            if (error) setError(undefined);
          }}
          onKeyDown={onKeyDown}
          placeholder={`What happened with this ${RECORD_WORDS[kind].one}?`}
        />
      </Field>
      <Button type="submit" size="sm" loading={add.isPending}>
        Add note
      </Button>
    </form>
  );
}

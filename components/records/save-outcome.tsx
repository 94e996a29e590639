"use client";

import Link from "next/link";
import { TagList } from "@/components/data-table/cells";
import { Button, Notice } from "@/components/ui";
import { type RecordKind, RECORD_WORDS, recordHref } from "./record-kind";

export interface SaveOutcomeProps {
  /** "lead" or "customer": the words of the message. */
  kind: RecordKind;
  result: {
    created: boolean;
    matchedExisting: boolean;
    id: string;
    name: string;
    tags: readonly string[];
  };
  /** Link to the record (left out on the record's own page). */
  showLink?: boolean;
  onDismiss?: () => void;
  className?: string;
}

/**
 * What an upsert did: created, updated, or (for "new") updated a phone or email match (the API's
 * 200). The resulting tags are shown because the API merges them.
 */
export function SaveOutcome({ kind, result, showLink = true, onDismiss, className }: SaveOutcomeProps) {
  const noun = RECORD_WORDS[kind].One;
  const href = recordHref(kind, result.id);
  const title = result.created
    ? `${noun} created`
    : result.matchedExisting
      ? `Updated existing ${kind} (matched by phone/email)`
      : `${noun} updated`;

  return (
    <Notice tone={result.matchedExisting ? "warning" : "success"} title={title} className={className}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="save-outcome">
        {showLink ? (
          <Link href={href} className="font-medium underline underline-offset-2">
            {result.name || `Open ${kind}`}
          </Link>
        ) : null}
        {result.matchedExisting ? (
          <span>No new {kind} was made: the details were saved to the existing one.</span>
        ) : null}
        {result.tags.length > 0 ? (
          <span className="inline-flex flex-wrap items-center gap-1">
            Tags: <TagList tags={result.tags} label="Tags after saving" className="max-w-none" />
          </span>
        ) : null}
        {onDismiss ? (
          <Button variant="ghost" size="sm" className="ml-auto" onClick={onDismiss}>
            Dismiss
          </Button>
        ) : null}
      </div>
    </Notice>
  );
}

"use client";

import { Button, errorMessage, useToast } from "@/components/ui";
import { useSetArchived } from "@/lib/query/activity";
import { RECORD_WORDS, type RecordKind } from "./record-kind";

/** How long the Undo button stays. */
const UNDO_MS = 8000;

/**
 * "Archive" / "Unarchive" on a record's page (POST …/archive, …/unarchive), then a toast whose
 * Undo makes the opposite call. Both land in the record's activity.
 */
export function ArchiveButton({
  kind,
  id,
  name,
  archived,
}: {
  kind: RecordKind;
  id: string;
  name: string;
  archived: boolean;
}) {
  const setArchived = useSetArchived(kind);
  const { notify } = useToast();
  const label = name || `the ${RECORD_WORDS[kind].one}`;

  async function change(to: boolean, undoable: boolean) {
    try {
      await setArchived.mutateAsync({ id, archived: to });
      notify({
        title: undoable
          ? `${to ? "Archived" : "Unarchived"} ${label}`
          : `Undone: ${label} ${to ? "archived" : "unarchived"} again`,
        tone: undoable ? "success" : "info",
        ...(undoable
          ? {
              durationMs: UNDO_MS,
              action: { label: "Undo", onClick: () => void change(!to, false) },
            }
          : {}),
      });
    } catch (error) {
      notify({
        tone: "danger",
        title: `Could not ${to ? "archive" : "unarchive"} ${label}: ${errorMessage(error)}`,
      });
    }
  }

  return (
    <Button
      variant="secondary"
      size="sm"
      loading={setArchived.isPending}
      onClick={() => void change(!archived, true)}
    >
      {archived ? "Unarchive" : "Archive"}
    </Button>
  );
}

"use client";

import type { CardLayout } from "@/components/data-table/types";
import { formatSort } from "@/components/data-table/api-sort";
import { RecordList, useRecordListView } from "@/components/records/record-list";
import { selectionColumn, useRecordSelection } from "@/components/records/record-selection";
import { NotAllowed } from "@/components/shell/not-allowed";
import { cn } from "@/components/ui";
import { type Lead, useLeads } from "@/lib/query/leads";
import { useCan, useSession } from "@/lib/query/session";
import { useUrlState } from "@/lib/query/url-state";
import { LEAD_SORT_FIELDS } from "@/lib/schemas/leads";
import { useFollowUpView } from "./follow-up-filter";
import { leadColumns } from "./lead-columns";
import { LeadForm, leadSaveOutcome } from "./lead-form";
import { LeadBulkBar } from "./lead-bulk-bar";
import { NoteFilter } from "./note-filter";
import { OwnerFilter, withOwnerColumn } from "./lead-owner";
import { LeadsBoard } from "./leads-board";
import { useStageFilterOptions } from "./stage-badge";
import { TerritoryFilter } from "./territory-filter";

/** A lead's card on phones: the checkbox (for users who can write), name, then what a call needs. */
const LEAD_CARD: CardLayout = {
  title: "name",
  leading: "select",
  fields: ["phone", "stage", "follow_up_date", "assigned_to"],
};

/** /leads: filters, the leads table or board and "New lead", all state in the URL. */
const LEAD_SELECTION = {
  noun: "leads",
  nameOf: (lead: Lead) => lead.name || "lead without a name",
};

export function LeadsView() {
  const { data: session } = useSession();
  const canRead = useCan("leads:read");
  const canWrite = useCan("leads:write");
  // Technicians have no leads:read (contract section 9); the API would answer 403 anyway.
  if (session && !canRead) return <NotAllowed what="Leads" />;
  return <LeadsList canWrite={canWrite} />;
}

function LeadsList({ canWrite }: { canWrite: boolean }) {
  const view = useRecordListView("stage", LEAD_SORT_FIELDS);
  const stage = view.filter;
  // The owner filter (a user id, none or me), in the URL beside the list's own filters.
  const [owner, setOwner] = useUrlState({ assigned_to: "" });
  const assignedTo = owner.assigned_to;
  // Leads with a note containing this text (GET /leads?note=), in the URL too.
  const [notes, setNotes] = useUrlState({ note: "" });
  const note = notes.note;
  // Leads inside a territory (GET /leads?territory_id=), in the URL too.
  const [territory, setTerritory] = useUrlState({ territory_id: "" });
  const territoryId = territory.territory_id;
  const followUp = useFollowUpView();
  // A follow-up view without a sort of the user's lists the soonest first.
  const sort = view.params.sort || formatSort(followUp.defaultSorting ?? []);
  const filters = { stage, assigned_to: assignedTo, territory_id: territoryId, note, ...followUp.range };
  const query = useLeads({ ...view.params, ...filters, sort });
  const selection = useRecordSelection(JSON.stringify([view.params, filters]));
  const pageIds = query.data?.data.map((lead) => lead.id) ?? [];
  const columns = withOwnerColumn(leadColumns);

  const stageOptions = useStageFilterOptions(stage);
  const [layout, setLayout] = useUrlState({ view: "table" });
  const board = layout.view === "board";
  const { search, tags, archived } = view.params;

  return (
    <RecordList
      kind="lead"
      description="Your sales pipeline: prospects from the website, referrals and your other tools."
      canWrite={canWrite}
      view={view}
      query={query}
      columns={canWrite ? [selectionColumn(selection, pageIds, LEAD_SELECTION), ...columns] : columns}
      cardLayout={LEAD_CARD}
      searchPlaceholder="Name, email or phone"
      filter={{ label: "Stage", placeholder: "All stages", value: stage, options: stageOptions }}
      outcomeOf={leadSaveOutcome}
      renderForm={(props) => <LeadForm {...props} />}
      extraFilters={{
        node: (
          <>
            <OwnerFilter
              value={assignedTo}
              onChange={(value) => {
                // Back to page 1, in the same history entry as the owner change (useUrlState).
                setOwner({ assigned_to: value || null });
                view.update({ page: null });
              }}
            />
            <TerritoryFilter
              value={territoryId}
              onChange={(value) => {
                setTerritory({ territory_id: value || null });
                view.update({ page: null });
              }}
            />
            <NoteFilter
              value={note}
              onChange={(value) => {
                setNotes({ note: value || null });
                view.update({ page: null });
              }}
            />
            {followUp.extraFilters.node}
          </>
        ),
        active: Boolean(assignedTo) || Boolean(territoryId) || Boolean(note) || followUp.extraFilters.active,
        count: [assignedTo, territoryId, note, followUp.extraFilters.active].filter(Boolean).length,
        clear: () => {
          setOwner({ assigned_to: null });
          setTerritory({ territory_id: null });
          setNotes({ note: null });
          followUp.extraFilters.clear();
        },
      }}
      defaultSorting={followUp.defaultSorting}
      beforeTable={
        canWrite ? (
          <LeadBulkBar
            selection={selection.selection}
            total={query.data?.pagination.total ?? 0}
            pageCount={pageIds.length}
            filter={{ ...view.params, ...filters }}
            stageOptions={stageOptions}
            onSelectAllMatching={selection.selectAllMatching}
            onClear={selection.clear}
          />
        ) : null
      }
      headerActions={
        <ViewSwitch board={board} onChange={(next) => setLayout({ view: next }, { history: "push" })} />
      }
      alternateView={
        board ? (
          <LeadsBoard
            filters={{
              search,
              tags,
              archived,
              stage: stage || undefined,
              assigned_to: assignedTo || undefined,
              territory_id: territoryId || undefined,
              note: note || undefined,
              ...followUp.range,
            }}
            canWrite={canWrite}
          />
        ) : undefined
      }
    />
  );
}
/** Table or board: two toggle buttons, the pressed one is the view shown. */
function ViewSwitch({ board, onChange }: { board: boolean; onChange: (view: "table" | "board") => void }) {
  return (
    <div
      role="group"
      aria-label="View"
      className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5"
    >
      {(["table", "board"] as const).map((value) => {
        const pressed = (value === "board") === board;
        return (
          <button
            key={value}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(value)}
            className={cn(
              "rounded-md px-3 py-1.5 text-sm font-medium capitalize focus-visible:outline-2 focus-visible:outline-brand-600",
              pressed ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100",
            )}
          >
            {value}
          </button>
        );
      })}
    </div>
  );
}

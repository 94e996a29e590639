"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { recordHref } from "@/components/records/record-kind";
import { Button, cn, ErrorState, errorMessage, LoadingBlock, Select } from "@/components/ui";
import { useToast } from "@/components/ui/toast";
import { formatDate, formatMoney, formatNumber } from "@/lib/format";
import { useCanConvertLead } from "@/lib/query/activity";
import { useMoveLead, type LeadMove } from "@/lib/query/lead-board";
import { type Lead, type LeadFilters, useLeads, useLeadStageTotals } from "@/lib/query/leads";
import { usePipeline } from "@/lib/query/pipeline";
import { DEFAULT_PIPELINE, type Stage } from "@/lib/schemas/pipeline";
import { ConvertLeadDialog } from "./convert-lead-dialog";
import { offPipelineLabel, StageDot } from "./stage-badge";

/** Cards a column shows at first, and adds with each "Show more". */
export const BOARD_PAGE = 20;
/** The most a column shows (the list's largest page). */
const BOARD_MAX = 1000;

/** A board column: a pipeline stage, or a value outside the pipeline that leads hold. */
interface Column {
  value: string;
  label: string;
  color?: string;
  inPipeline: boolean;
  /** A won stage: its cards offer "Convert to customer". */
  won?: boolean;
}

/** The columns: the pipeline's stages in order, then other values in use; one only with a stage filter. */
function boardColumns(
  pipeline: readonly Stage[],
  inUse: readonly (string | null)[],
  stage?: string,
): Column[] {
  const columns: Column[] = pipeline.map((s) => ({
    value: s.key,
    label: s.label,
    color: s.color,
    inPipeline: true,
    won: s.kind === "won",
  }));
  for (const value of inUse) {
    if (value !== null && !columns.some((c) => c.value === value)) {
      columns.push({ value, label: offPipelineLabel(value), inPipeline: false });
    }
  }
  if (!stage) return columns;
  const only = columns.find((c) => c.value === stage);
  return [only ?? { value: stage, label: offPipelineLabel(stage), inPipeline: false }];
}

/**
 * A column per stage with its exact count and value (GET /api/leads/stage-totals, the table's filters);
 * a card moves by drag and drop or its "Move to" menu, one POST /api/leads each.
 */
export function LeadsBoard({ filters, canWrite }: { filters: LeadFilters; canWrite: boolean }) {
  const pipeline = usePipeline();
  const totals = useLeadStageTotals(filters);
  const move = useMoveLead();
  const { notify } = useToast();
  const draggedRef = useRef<{ lead: Lead; from: string } | null>(null);
  const canConvert = useCanConvertLead();
  const [converting, setConverting] = useState<Lead | null>(null);
  // The last moved card: its new column shows and highlights it, even when it sorts past the page.
  const [moved, setMoved] = useState<{ lead: Lead; to: string } | null>(null);

  if (pipeline.isPending || totals.isPending) return <LoadingBlock label="Loading the board" />;
  if (totals.isError) {
    return (
      <ErrorState error={totals.error} title="Could not load the board" onRetry={() => totals.refetch()} />
    );
  }
  const stages = pipeline.data ?? DEFAULT_PIPELINE;
  const rows = totals.data.data;
  const columns = boardColumns(
    stages,
    rows.map((r) => r.stage),
    filters.stage,
  );
  const noStage = rows.find((r) => r.stage === null)?.count ?? 0;
  const labelOf = (value: string) => columns.find((c) => c.value === value)?.label ?? value;

  /**
   * One move through POST /leads; its toast (an aria-live region, so screen readers hear it too)
   * offers Undo, which moves the lead back to the stage it had.
   */
  function moveLead({ lead, from, to }: LeadMove, undoing = false) {
    if (from === to) return;
    const name = lead.name || "Unnamed lead";
    setMoved({ lead: { ...lead, stage: to }, to });
    move.mutate(
      { lead, from, to },
      {
        onSuccess: () => {
          const title = undoing ? `${name} moved back to ${labelOf(to)}` : `${name} moved to ${labelOf(to)}`;
          notify({
            title,
            ...(undoing
              ? {}
              : {
                  action: {
                    label: "Undo",
                    onClick: () => moveLead({ lead: { ...lead, stage: to }, from: to, to: from }, true),
                  },
                  durationMs: 8000,
                }),
          });
        },
        onError: (error) => {
          setMoved(null);
          notify({ tone: "danger", title: `Could not move ${name}: ${errorMessage(error)}` });
        },
      },
    );
  }

  return (
    // Its width is the page's, whatever the columns need: they scroll inside, the page does not.
    <div className="min-w-0">
      {noStage > 0 ? (
        <p className="mb-2 text-sm text-slate-500">
          {formatNumber(noStage)} matching lead{noStage === 1 ? " has" : "s have"} no stage; the table shows
          them.
        </p>
      ) : null}
      {/* Columns scroll sideways within the board, never the page; on phones one column fills the width. */}
      {/* Positioned, so that it clips its absolutely positioned (sr-only) descendants as well. */}
      <div className="relative -mx-1 flex snap-x snap-mandatory gap-3 overflow-x-auto px-1 pb-3 sm:snap-none">
        {columns.map((column) => {
          const row = rows.find((r) => r.stage === column.value);
          return (
            <BoardColumn
              key={column.value}
              column={column}
              count={row?.count ?? 0}
              value={row?.projected_value ?? 0}
              filters={filters}
              stages={stages}
              canWrite={canWrite}
              onMove={moveLead}
              draggedRef={draggedRef}
              onConvert={canConvert && column.won ? setConverting : undefined}
              moved={moved?.to === column.value ? moved.lead : undefined}
            />
          );
        })}
      </div>
      {converting ? <ConvertLeadDialog lead={converting} onClose={() => setConverting(null)} /> : null}
    </div>
  );
}

/** What a column and its cards need to move a lead: the stages, the right to, and the drag. */
interface MoveProps {
  stages: readonly Stage[];
  canWrite: boolean;
  onMove: (move: LeadMove) => void;
  draggedRef: React.RefObject<{ lead: Lead; from: string } | null>;
  /** Cards of a won column with both write scopes: "Convert to customer". */
  onConvert?: (lead: Lead) => void;
}

/** A card just moved here is shown first while the column's page does not hold it. */
function withMovedCard(cards: readonly Lead[], moved: Lead | undefined): readonly Lead[] {
  if (!moved || cards.some((lead) => lead.id === moved.id)) return cards;
  return [moved, ...cards];
}

function BoardColumn({
  column,
  count,
  value,
  filters,
  moved,
  ...moving
}: MoveProps & { column: Column; count: number; value: number; filters: LeadFilters; moved?: Lead }) {
  const { canWrite, onMove, draggedRef } = moving;
  const [limit, setLimit] = useState(BOARD_PAGE);
  const [over, setOver] = useState(false);
  const leads = useLeads({ ...filters, page: 1, limit, stage: column.value });
  const cards = withMovedCard(leads.data?.data ?? [], leads.data ? moved : undefined);
  // A generated id: a stage value may hold spaces, which aria-labelledby reads as a list of ids.
  const headingId = useId();

  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        "flex w-[85%] shrink-0 snap-start flex-col rounded-xl border bg-slate-50 sm:w-72",
        over ? "border-brand-500 ring-2 ring-brand-500/30" : "border-slate-200",
      )}
      onDragOver={(e) => {
        if (!canWrite || !draggedRef.current) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const drag = draggedRef.current;
        draggedRef.current = null;
        if (drag) onMove({ ...drag, to: column.value });
      }}
    >
      <header className="border-b border-slate-200 px-3 py-2.5">
        <h2 id={headingId} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <StageDot color={column.color} />
          <span className="truncate">{column.label}</span>
        </h2>
        <p className="mt-0.5 text-xs text-slate-600 tabular-nums">
          <span>
            {formatNumber(count)} lead{count === 1 ? "" : "s"}
          </span>{" "}
          · <span>{formatMoney(value)}</span>
        </p>
      </header>
      {leads.isError ? (
        <ErrorState error={leads.error} title="Could not load these leads" onRetry={() => leads.refetch()} />
      ) : leads.isPending ? (
        <LoadingBlock label={`Loading ${column.label}`} />
      ) : cards.length === 0 ? (
        <p className="px-3 py-6 text-center text-sm text-slate-500">No leads</p>
      ) : (
        <ul className="flex flex-col gap-2 p-2" aria-label={`Leads in ${column.label}`}>
          {cards.map((lead) => (
            <BoardCard
              key={lead.id}
              lead={lead}
              from={column.value}
              highlighted={lead.id === moved?.id}
              {...moving}
            />
          ))}
        </ul>
      )}
      {cards.length < (leads.data?.pagination.total ?? 0) && limit < BOARD_MAX ? (
        <div className="px-2 pb-2">
          <Button
            variant="ghost"
            size="sm"
            className="w-full"
            loading={leads.isFetching}
            onClick={() => setLimit(Math.min(limit + BOARD_PAGE, BOARD_MAX))}
          >
            Show more in {column.label}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function BoardCard({
  lead,
  from,
  stages,
  canWrite,
  onMove,
  draggedRef,
  onConvert,
  highlighted = false,
}: MoveProps & { lead: Lead; from: string; highlighted?: boolean }) {
  const name = lead.name || "Unnamed lead";
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    // The board and its columns scroll: bring the moved card into view where it landed.
    if (highlighted) ref.current?.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "smooth" });
  }, [highlighted]);
  return (
    <li
      ref={ref}
      data-moved={highlighted ? "true" : undefined}
      draggable={canWrite}
      onDragStart={(e) => {
        draggedRef.current = { lead, from };
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", lead.id);
      }}
      onDragEnd={() => {
        draggedRef.current = null;
      }}
      data-lead-id={lead.id}
      className={cn(
        "rounded-lg border border-slate-200 bg-white p-3 shadow-xs",
        highlighted && "border-brand-500 ring-2 ring-brand-500/40",
        canWrite && "cursor-grab active:cursor-grabbing",
      )}
    >
      <Link
        href={recordHref("lead", lead.id)}
        className="block truncate text-sm font-medium text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {name}
      </Link>
      <dl className="mt-1 space-y-0.5 text-xs text-slate-600">
        {lead.phone ? (
          <div className="flex gap-1">
            <dt className="sr-only">Phone</dt>
            <dd>{lead.phone}</dd>
          </div>
        ) : null}
        <div className="flex gap-1">
          <dt>Value</dt>
          <dd className="font-medium text-slate-800 tabular-nums">{formatMoney(lead.projected_value)}</dd>
        </div>
        {lead.follow_up_date ? (
          <div className="flex gap-1">
            <dt>Follow up</dt>
            <dd>{formatDate(lead.follow_up_date)}</dd>
          </div>
        ) : null}
      </dl>
      {canWrite ? (
        <Select
          aria-label={`Move ${name} to another stage`}
          value=""
          onChange={(e) => {
            if (e.target.value) onMove({ lead, from, to: e.target.value });
          }}
          placeholder="Move to…"
          options={stages.filter((s) => s.key !== from).map((s) => ({ value: s.key, label: s.label }))}
          className="mt-2 h-8 text-xs"
        />
      ) : null}
      {onConvert && !lead.customer_id ? (
        <Button
          variant="secondary"
          size="sm"
          className="mt-2 w-full"
          aria-label={`Convert to customer: ${name}`}
          onClick={() => onConvert(lead)}
        >
          Convert to customer
        </Button>
      ) : lead.customer_id ? (
        <Link
          href={recordHref("customer", lead.customer_id)}
          className="mt-2 block text-xs text-brand-700 underline"
        >
          Open the customer
        </Link>
      ) : null}
    </li>
  );
}

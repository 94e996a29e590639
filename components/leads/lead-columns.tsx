"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { EmptyCell } from "@/components/data-table/cells";
import { RecordLink, recordColumns } from "@/components/records/record-columns";
import { Badge, type BadgeTone } from "@/components/ui";
import { formatDate, formatMoney } from "@/lib/format";
import type { Lead } from "@/lib/query/leads";
import { StageBadge } from "./stage-badge";

const PRIORITY_TONES: Record<NonNullable<Lead["priority"]>, BadgeTone> = {
  high: "danger",
  medium: "warning",
  low: "neutral",
};

const dash = <EmptyCell />;
const shared = recordColumns<Lead>();

/**
 * Columns of the leads table; "name" links to the lead's page and cannot be hidden. What a rep
 * plans by (stage, follow-up, created) comes before email and tags, which run off a narrower
 * screen first.
 */
export const leadColumns: ColumnDef<Lead>[] = [
  {
    id: "name",
    header: "Name",
    accessorKey: "name",
    enableHiding: false,
    meta: { alwaysVisible: true, wrap: true, cellClassName: "min-w-40" },
    cell: ({ row }) => (
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <RecordLink kind="lead" id={row.original.id}>
          {row.original.name || <span className="italic text-slate-500">(no name)</span>}
        </RecordLink>
        {row.original.archived ? <Badge tone="neutral">Archived</Badge> : null}
      </span>
    ),
  },
  shared.phone,
  {
    id: "stage",
    header: "Stage",
    accessorKey: "stage",
    meta: { cellClassName: "whitespace-nowrap" },
    cell: ({ row }) => (row.original.stage ? <StageBadge stage={row.original.stage} /> : dash),
  },
  {
    id: "priority",
    header: "Priority",
    accessorKey: "priority",
    cell: ({ row }) => {
      const priority = row.original.priority;
      return priority ? (
        <Badge tone={PRIORITY_TONES[priority]} className="capitalize">
          {priority}
        </Badge>
      ) : (
        dash
      );
    },
  },
  {
    id: "projected_value",
    header: "Projected value",
    accessorKey: "projected_value",
    meta: { align: "right", wrapHeader: true, cellClassName: "whitespace-nowrap" },
    cell: ({ row }) =>
      row.original.projected_value == null ? dash : formatMoney(row.original.projected_value),
  },
  {
    id: "follow_up_date",
    header: "Follow-up",
    accessorKey: "follow_up_date",
    meta: { label: "Follow-up date", cellClassName: "whitespace-nowrap" },
    cell: ({ row }) => (row.original.follow_up_date ? formatDate(row.original.follow_up_date) : dash),
  },
  shared.created,
  shared.email,
  shared.tags,
];

"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { EmptyCell, TagList } from "@/components/data-table/cells";
import { formatDate } from "@/lib/format";
import { ContactLink } from "./record-detail";
import { type RecordKind, recordHref } from "./record-kind";

// Columns the leads and customers tables share, and the record link their name column holds; each
// table keeps its own name cell and fields.

interface ContactRow {
  email?: string | null;
  phone?: string | null;
  tags: readonly string[];
  created_at: string | null;
}

const dash = <EmptyCell />;

/**
 * A link to the record's page, since keyboards cannot click rows. A long name is cut with an
 * ellipsis; the whole of it is in its title.
 */
export function RecordLink({
  kind,
  id,
  children,
}: {
  kind: RecordKind;
  id: string;
  children: React.ReactNode;
}) {
  return (
    <Link
      href={recordHref(kind, id)}
      title={typeof children === "string" ? children : undefined}
      className="inline-block max-w-72 truncate align-bottom font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      {children}
    </Link>
  );
}

/** A value cut to a cell's width, whole in its title. */
export function Truncated({ text }: { text: string }) {
  return (
    <span className="block max-w-64 truncate" title={text}>
      {text}
    </span>
  );
}

/** The shared columns for a table of `T`: `const shared = recordColumns<Lead>()`, then `shared.email` … */
export function recordColumns<T extends ContactRow>() {
  const email: ColumnDef<T> = {
    id: "email",
    header: "Email",
    accessorFn: (row) => row.email,
    cell: ({ row }) => (row.original.email ? <Truncated text={row.original.email} /> : dash),
  };
  const phone: ColumnDef<T> = {
    id: "phone",
    header: "Phone",
    accessorFn: (row) => row.phone,
    meta: {
      cellClassName: "whitespace-nowrap",
      // On a phone, a tap calls (the table's cell stays plain text for desktops).
      cardCell: (row) =>
        row.phone ? <ContactLink scheme="tel" value={row.phone} className="block truncate" /> : dash,
    },
    cell: ({ row }) => row.original.phone ?? dash,
  };
  const tags: ColumnDef<T> = {
    id: "tags",
    header: "Tags",
    accessorFn: (row) => row.tags,
    meta: { wrap: true, cellClassName: "min-w-32" },
    cell: ({ row }) => <TagList tags={row.original.tags} />,
  };
  const created: ColumnDef<T> = {
    id: "created_at",
    header: "Created",
    accessorFn: (row) => row.created_at,
    meta: { cellClassName: "whitespace-nowrap" },
    cell: ({ row }) => formatDate(row.original.created_at),
  };
  return { email, phone, tags, created };
}

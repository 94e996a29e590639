"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { EmptyCell, TagList } from "@/components/data-table/cells";
import { Badge } from "@/components/ui";
import { formatDate } from "@/lib/format";
import type { Customer } from "@/lib/query/customers";
import { customerName } from "./customer-options";

const dash = <EmptyCell />;

/** Columns of the customers table; "name" links to the customer's page and cannot be hidden. */
export const customerColumns: ColumnDef<Customer>[] = [
  {
    // The company shows under the person's name (most customers have none, so a column of its
    // own would be mostly dashes); a company-only customer is named by the company.
    id: "name",
    header: "Name",
    enableHiding: false,
    meta: { alwaysVisible: true, wrap: true, cellClassName: "min-w-40" },
    cell: ({ row }) => {
      const customer = row.original;
      const name = customerName(customer);
      return (
        <span className="block">
          <Link
            href={`/customers/${encodeURIComponent(customer.id)}`}
            className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {name}
          </Link>
          {customer.company_name && customer.company_name !== name ? (
            <span className="block text-xs text-slate-500">{customer.company_name}</span>
          ) : null}
        </span>
      );
    },
  },
  {
    id: "email",
    header: "Email",
    accessorKey: "email",
    cell: ({ row }) => row.original.email ?? dash,
  },
  {
    id: "phone",
    header: "Phone",
    accessorKey: "phone",
    meta: { cellClassName: "whitespace-nowrap" },
    cell: ({ row }) => row.original.phone ?? dash,
  },
  {
    id: "status",
    header: "Status",
    accessorKey: "status",
    cell: ({ row }) =>
      row.original.status === "active" ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>,
  },
  {
    id: "city",
    header: "City",
    meta: { label: "City", cellClassName: "whitespace-nowrap" },
    cell: ({ row }) => {
      const { city, state } = row.original.address;
      const text = [city, state].filter(Boolean).join(", ");
      return text || dash;
    },
  },
  {
    id: "tags",
    header: "Tags",
    accessorKey: "tags",
    meta: { wrap: true, cellClassName: "min-w-32" },
    cell: ({ row }) => <TagList tags={row.original.tags} />,
  },
  {
    id: "is_auto_pay",
    header: "Auto-pay",
    accessorKey: "is_auto_pay",
    cell: ({ row }) => (row.original.is_auto_pay ? <Badge tone="info">Auto-pay</Badge> : dash),
  },
  {
    id: "created_at",
    header: "Created",
    accessorKey: "created_at",
    meta: { cellClassName: "whitespace-nowrap" },
    cell: ({ row }) => formatDate(row.original.created_at),
  },
];

"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { EmptyCell } from "@/components/data-table/cells";
import { RecordLink, Truncated, recordColumns } from "@/components/records/record-columns";
import { Badge } from "@/components/ui";
import type { Customer } from "@/lib/query/customers";
import { customerName } from "@/lib/values/customer-name";

const dash = <EmptyCell />;
const shared = recordColumns<Customer>();

/** Columns of the customers table; "name" links to the customer's page and cannot be hidden. */
export const customerColumns: ColumnDef<Customer>[] = [
  {
    // The company shows under the person's name (most customers have none, so a column of its
    // own would be mostly dashes); a company-only customer is named by the company.
    id: "name",
    header: "Name",
    // What the header's sort orders by (last name, then first, then company), not what is shown.
    accessorFn: (customer) => customer.last_name ?? "",
    enableHiding: false,
    meta: { alwaysVisible: true, wrap: true, cellClassName: "min-w-40" },
    cell: ({ row }) => {
      const customer = row.original;
      const name = customerName(customer);
      return (
        <span className="block">
          <RecordLink kind="customer" id={customer.id}>
            {name}
          </RecordLink>
          {customer.company_name && customer.company_name !== name ? (
            <span className="block max-w-72 truncate text-xs text-slate-500" title={customer.company_name}>
              {customer.company_name}
            </span>
          ) : null}
        </span>
      );
    },
  },
  shared.email,
  shared.phone,
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
      return text ? <Truncated text={text} /> : dash;
    },
  },
  shared.tags,
  {
    id: "is_auto_pay",
    header: "Auto-pay",
    accessorKey: "is_auto_pay",
    cell: ({ row }) => (row.original.is_auto_pay ? <Badge tone="info">Auto-pay</Badge> : dash),
  },
  shared.created,
];

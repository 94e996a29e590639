"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { EmptyCell } from "@/components/data-table/cells";
import { SelectFilter } from "@/components/data-table/table-filters";
import { Field, Select, type SelectOption } from "@/components/ui";
import { type AssignableUser, useAssignableUsers } from "@/lib/query/lead-owners";
import type { Lead } from "@/lib/query/leads";
import { ROLE_LABELS } from "@/lib/values/roles";

// A lead's owner in the form, column and filter. Users come from GET /api/users (active only), so
// a deactivated owner still shows, as "Former user".

function userOptions(users: readonly AssignableUser[] | undefined, current?: string | null): SelectOption[] {
  const options = (users ?? []).map((u) => ({ value: u.id, label: `${u.name} (${ROLE_LABELS[u.role]})` }));
  if (current && !options.some((o) => o.value === current))
    options.push({ value: current, label: "Former user" });
  return options;
}

/** The owner select of the lead form: "Unassigned" or one of the company's users. */
export function OwnerField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error?: string;
}) {
  const users = useAssignableUsers();
  return (
    <Field label="Owner" error={error}>
      <Select
        name="assigned_to"
        value={value}
        onChange={onChange}
        placeholder="Unassigned"
        options={userOptions(users.data, value)}
      />
    </Field>
  );
}

/** A user's name by id ("Former user" when no longer active). */
export function OwnerName({ id }: { id: string }) {
  const users = useAssignableUsers();
  const user = users.data?.find((u) => u.id === id);
  if (!users.data) return <span className="text-slate-500">…</span>;
  return user ? (
    <span title={user.name}>{user.name}</span>
  ) : (
    <span className="italic text-slate-500">Former user</span>
  );
}

/** The Owner column of the leads table. */
export const ownerColumn: ColumnDef<Lead> = {
  id: "assigned_to",
  header: "Owner",
  accessorKey: "assigned_to",
  meta: { cellClassName: "whitespace-nowrap" },
  cell: ({ row }) => (row.original.assigned_to ? <OwnerName id={row.original.assigned_to} /> : <EmptyCell />),
};

/** The leads table's columns with Owner after Stage. */
export function withOwnerColumn(columns: ColumnDef<Lead>[]): ColumnDef<Lead>[] {
  const at = columns.findIndex((c) => c.id === "stage");
  return [...columns.slice(0, at + 1), ownerColumn, ...columns.slice(at + 1)];
}

/** The owner filter's choices: anyone (no filter), me, unassigned, or a user. */
export function OwnerFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const users = useAssignableUsers();
  return (
    <SelectFilter
      id="leads-owner"
      label="Owner"
      value={value}
      onChange={onChange}
      placeholder="Anyone"
      options={[
        { value: "me", label: "Me" },
        { value: "none", label: "Unassigned" },
        ...userOptions(users.data, value === "me" || value === "none" ? undefined : value),
      ]}
    />
  );
}

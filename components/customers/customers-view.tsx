"use client";

import type { CardLayout } from "@/components/data-table/types";
import { RecordList, useRecordListView } from "@/components/records/record-list";
import { selectionColumn, useRecordSelection } from "@/components/records/record-selection";
import { NotAllowed } from "@/components/shell/not-allowed";
import { type Customer, type CustomerStatus, useCustomers } from "@/lib/query/customers";
import { useCan, useSession } from "@/lib/query/session";
import { CUSTOMER_SORT_FIELDS } from "@/lib/schemas/customers";
import { CustomerBulkBar } from "./customer-bulk-bar";
import { customerColumns } from "./customer-columns";
import { CustomerForm, customerSaveOutcome } from "./customer-form";
import { customerName } from "@/lib/values/customer-name";
import { STATUS_OPTIONS } from "./customer-options";

/**
 * A customer's card on phones: the checkbox (for users who can write, as the bulk bar's), name (and
 * company), then how to reach them and where.
 */
const CUSTOMER_CARD: CardLayout = {
  title: "name",
  leading: "select",
  fields: ["phone", "status", "city", "email"],
};

const CUSTOMER_SELECTION = { noun: "customers", nameOf: (customer: Customer) => customerName(customer) };

/** /customers: filters, the customers table and "New customer", all state in the URL. */
export function CustomersView() {
  const { data: session } = useSession();
  const canRead = useCan("customers:read");
  const canWrite = useCan("customers:write");
  if (session && !canRead) return <NotAllowed what="Customers" />;
  return <CustomersList canWrite={canWrite} />;
}

function CustomersList({ canWrite }: { canWrite: boolean }) {
  const view = useRecordListView("status", CUSTOMER_SORT_FIELDS);
  // Only the two values the API accepts; anything else in a hand-edited URL means "all".
  const status: CustomerStatus | "" =
    view.filter === "active" || view.filter === "inactive" ? view.filter : "";
  const query = useCustomers({ ...view.params, status });
  const selection = useRecordSelection(JSON.stringify([view.params, status]));
  const pageIds = query.data?.data.map((customer) => customer.id) ?? [];

  return (
    <RecordList
      kind="customer"
      description="Everyone you service: their property, billing and status."
      canWrite={canWrite}
      view={view}
      query={query}
      columns={
        canWrite
          ? [selectionColumn(selection, pageIds, CUSTOMER_SELECTION), ...customerColumns]
          : customerColumns
      }
      cardLayout={CUSTOMER_CARD}
      searchPlaceholder="Name, company, email or phone"
      filter={{ label: "Status", placeholder: "All statuses", value: status, options: STATUS_OPTIONS }}
      tagsPlaceholder="e.g. vip, commercial"
      outcomeOf={customerSaveOutcome}
      renderForm={(props) => <CustomerForm {...props} />}
      beforeTable={
        canWrite ? <CustomerBulkBar selection={selection.selection} onClear={selection.clear} /> : null
      }
    />
  );
}

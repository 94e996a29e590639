"use client";

import { useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { FilterBar, FilterField, SearchFilter, TagsFilter } from "@/components/data-table/table-filters";
import { DEFAULT_PAGE_SIZES } from "@/components/data-table/types";
import { SaveOutcome } from "@/components/leads/save-outcome";
import { NotAllowed } from "@/components/shell/not-allowed";
import { PageHeader } from "@/components/shell/page-header";
import { Button, Checkbox, Dialog, EmptyState, Notice, Select } from "@/components/ui";
import { parseTagList } from "@/lib/domain/normalize";
import { type CustomerSaveResult, type CustomerStatus, useCustomers } from "@/lib/query/customers";
import { useSession } from "@/lib/query/session";
import { parseBoolParam, parseIntParam, useUrlState } from "@/lib/query/url-state";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { customerColumns } from "./customer-columns";
import { CustomerForm } from "./customer-form";
import { STATUS_OPTIONS, customerName } from "./customer-options";

/** Everything the customers view keeps in the URL, with the defaults left out of it. */
const VIEW_DEFAULTS = { page: "1", limit: "50", search: "", status: "", tags: "", archived: "false" };

const SORTING = [{ id: "created_at", desc: true }];

/** /customers: filters, the customers table and "New customer", all state in the URL. */
export function CustomersView() {
  const { data: session } = useSession();
  if (session && !session.scopes.includes("customers:read")) return <NotAllowed what="Customers" />;
  return <CustomersList canWrite={session?.scopes.includes("customers:write") ?? false} />;
}

function CustomersList({ canWrite }: { canWrite: boolean }) {
  const [view, setView] = useUrlState(VIEW_DEFAULTS);
  const [creating, setCreating] = useState(false);
  const [outcome, setOutcome] = useState<CustomerSaveResult | null>(null);

  const page = parseIntParam(view.page, 1);
  const limit = parseIntParam(view.limit, 50, 1, MAX_PAGE_SIZE);
  const archived = parseBoolParam(view.archived);
  // Only the two values the API accepts; anything else in a hand-edited URL means "all".
  const status: CustomerStatus | "" =
    view.status === "active" || view.status === "inactive" ? view.status : "";
  const params = {
    page,
    limit,
    search: view.search.trim(),
    status,
    tags: parseTagList(view.tags).join(","),
    archived,
  };
  const query = useCustomers(params);
  const filtered = Boolean(params.search || status || params.tags || archived);
  const clearFilters = () => setView({ search: null, status: null, tags: null, archived: null, page: null });

  const toolbar = (
    <FilterBar>
      <SearchFilter
        id="customers-search"
        placeholder="Name, company, email or phone"
        value={view.search}
        onChange={(search) => setView({ search, page: null })}
      />
      <FilterField id="customers-status" label="Status">
        <Select
          id="customers-status"
          value={status}
          onChange={(e) => setView({ status: e.target.value, page: null })}
          placeholder="All statuses"
          options={STATUS_OPTIONS}
        />
      </FilterField>
      <TagsFilter
        id="customers-tags"
        placeholder="e.g. vip, commercial"
        value={view.tags}
        onChange={(tags) => setView({ tags, page: null })}
      />
      <Checkbox
        className="pb-2.5"
        label="Show archived"
        checked={archived}
        onChange={(e) => setView({ archived: e.target.checked, page: null })}
      />
      {filtered ? (
        <Button variant="ghost" size="sm" className="mb-1" onClick={clearFilters}>
          Clear filters
        </Button>
      ) : null}
    </FilterBar>
  );

  return (
    <div>
      <PageHeader
        title="Customers"
        description="Everyone you service: their property, billing and status."
        actions={canWrite ? <Button onClick={() => setCreating(true)}>New customer</Button> : null}
      />

      {outcome ? (
        <SaveOutcome
          className="mb-4"
          kind="customer"
          result={{
            ...outcome,
            id: outcome.customer.id,
            name: customerName(outcome.customer),
            tags: outcome.customer.tags,
          }}
          onDismiss={() => setOutcome(null)}
        />
      ) : null}

      {page > 1 && query.data && query.data.data.length === 0 && query.data.pagination.total > 0 ? (
        <Notice tone="info" className="mb-4">
          This page is past the end of the list.{" "}
          <Button variant="secondary" size="sm" onClick={() => setView({ page: null })}>
            Go to the first page
          </Button>
        </Notice>
      ) : null}

      <DataTable
        label="Customers"
        columns={customerColumns}
        data={query.data?.data}
        getRowId={(customer) => customer.id}
        isLoading={query.isPending}
        isFetching={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        storageKey="customers"
        sorting={SORTING}
        rowHref={(customer) => `/customers/${encodeURIComponent(customer.id)}`}
        toolbar={toolbar}
        pagination={{
          page,
          pageSize: limit,
          total: query.data?.pagination.total,
          pageSizes: DEFAULT_PAGE_SIZES,
          noun: "customers",
          onChange: (nextPage, nextSize) =>
            setView(
              { page: nextPage, limit: nextSize },
              { history: nextSize === limit ? "push" : "replace" },
            ),
        }}
        emptyState={
          filtered ? (
            <EmptyState
              title="No customers match these filters"
              description="Try another search, or clear the filters."
              action={
                <Button variant="secondary" size="sm" onClick={clearFilters}>
                  Clear filters
                </Button>
              }
            />
          ) : (
            <EmptyState
              title="No customers yet"
              description="Customers you add, or that your other tools send through the API, show up here."
              action={canWrite ? <Button onClick={() => setCreating(true)}>New customer</Button> : undefined}
            />
          )
        }
      />

      <Dialog
        open={creating}
        onClose={() => setCreating(false)}
        title="New customer"
        description="If a customer with the same phone or email exists, it is updated instead (tags are merged)."
        size="lg"
      >
        <CustomerForm
          onCancel={() => setCreating(false)}
          onSaved={(result) => {
            setCreating(false);
            setOutcome(result);
          }}
        />
      </Dialog>
    </div>
  );
}

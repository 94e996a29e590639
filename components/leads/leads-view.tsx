"use client";

import { useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { FilterBar, FilterField, SearchFilter, TagsFilter } from "@/components/data-table/table-filters";
import { DEFAULT_PAGE_SIZES } from "@/components/data-table/types";
import { Button, Checkbox, Dialog, EmptyState, Notice, Select } from "@/components/ui";
import { parseTagList } from "@/lib/domain/normalize";
import { NotAllowed } from "@/components/shell/not-allowed";
import { PageHeader } from "@/components/shell/page-header";
import { type LeadSaveResult, useLeads } from "@/lib/query/leads";
import { useSession } from "@/lib/query/session";
import { parseBoolParam, parseIntParam, useUrlState } from "@/lib/query/url-state";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { leadColumns } from "./lead-columns";
import { LeadForm } from "./lead-form";
import { LEAD_STAGES } from "./lead-options";
import { SaveOutcome } from "./save-outcome";

/** Everything the leads view keeps in the URL, with the defaults left out of it. */
const VIEW_DEFAULTS = { page: "1", limit: "50", search: "", stage: "", tags: "", archived: "false" };

const SORTING = [{ id: "created_at", desc: true }];

/** /leads: filters, the leads table and "New lead", all state in the URL. */
export function LeadsView() {
  const { data: session } = useSession();
  // Technicians have no leads:read (contract section 9); the API would answer 403 anyway.
  if (session && !session.scopes.includes("leads:read")) return <NotAllowed what="Leads" />;
  return <LeadsList canWrite={session?.scopes.includes("leads:write") ?? false} />;
}

function LeadsList({ canWrite }: { canWrite: boolean }) {
  const [view, setView] = useUrlState(VIEW_DEFAULTS);
  const [creating, setCreating] = useState(false);
  const [outcome, setOutcome] = useState<LeadSaveResult | null>(null);

  const page = parseIntParam(view.page, 1);
  const limit = parseIntParam(view.limit, 50, 1, MAX_PAGE_SIZE);
  const archived = parseBoolParam(view.archived);
  const params = {
    page,
    limit,
    search: view.search.trim(),
    stage: view.stage,
    tags: parseTagList(view.tags).join(","),
    archived,
  };
  const query = useLeads(params);
  const filtered = Boolean(params.search || params.stage || params.tags || archived);
  const clearFilters = () => setView({ search: null, stage: null, tags: null, archived: null, page: null });

  // Stage is a free string: keep a stage from a shared link selectable even if not in our list.
  const stageOptions = [
    ...LEAD_STAGES,
    ...(view.stage && !LEAD_STAGES.some((s) => s.value === view.stage)
      ? [{ value: view.stage, label: view.stage }]
      : []),
  ];

  const toolbar = (
    <FilterBar>
      <SearchFilter
        id="leads-search"
        placeholder="Name, email or phone"
        value={view.search}
        onChange={(search) => setView({ search, page: null })}
      />
      <FilterField id="leads-stage" label="Stage">
        <Select
          id="leads-stage"
          value={view.stage}
          onChange={(e) => setView({ stage: e.target.value, page: null })}
          placeholder="All stages"
          options={stageOptions}
        />
      </FilterField>
      <TagsFilter id="leads-tags" value={view.tags} onChange={(tags) => setView({ tags, page: null })} />
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
        title="Leads"
        description="Your sales pipeline: prospects from the website, referrals and your other tools."
        actions={canWrite ? <Button onClick={() => setCreating(true)}>New lead</Button> : null}
      />

      {outcome ? (
        <SaveOutcome
          className="mb-4"
          kind="lead"
          result={{ ...outcome, id: outcome.lead.id, name: outcome.lead.name, tags: outcome.lead.tags }}
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
        label="Leads"
        columns={leadColumns}
        data={query.data?.data}
        getRowId={(lead) => lead.id}
        isLoading={query.isPending}
        isFetching={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        storageKey="leads"
        sorting={SORTING}
        rowHref={(lead) => `/leads/${encodeURIComponent(lead.id)}`}
        toolbar={toolbar}
        pagination={{
          page,
          pageSize: limit,
          total: query.data?.pagination.total,
          pageSizes: DEFAULT_PAGE_SIZES,
          noun: "leads",
          onChange: (nextPage, nextSize) =>
            setView(
              { page: nextPage, limit: nextSize },
              { history: nextSize === limit ? "push" : "replace" },
            ),
        }}
        emptyState={
          filtered ? (
            <EmptyState
              title="No leads match these filters"
              description="Try another search, or clear the filters."
              action={
                <Button variant="secondary" size="sm" onClick={clearFilters}>
                  Clear filters
                </Button>
              }
            />
          ) : (
            <EmptyState
              title="No leads yet"
              description="Leads you add, or that your other tools send through the API, show up here."
              action={canWrite ? <Button onClick={() => setCreating(true)}>New lead</Button> : undefined}
            />
          )
        }
      />

      <Dialog
        open={creating}
        onClose={() => setCreating(false)}
        title="New lead"
        description="If a lead with the same phone or email exists, it is updated instead (tags are merged)."
        size="lg"
      >
        <LeadForm
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

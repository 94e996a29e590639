"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { listQueryProps } from "@/components/data-table/query-props";
import { FilterBar, FilterField, SearchFilter, TagsFilter } from "@/components/data-table/table-filters";
import { DEFAULT_PAGE_SIZES } from "@/components/data-table/types";
import { PageHeader } from "@/components/shell/page-header";
import { Button, Checkbox, Dialog, EmptyState, Notice, Select, type SelectOption } from "@/components/ui";
import { parseTagList } from "@/lib/domain/normalize";
import { type SetUrlStateOptions, parseBoolParam, parseIntParam, useUrlState } from "@/lib/query/url-state";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { type RecordKind, RECORD_WORDS, recordHref } from "./record-kind";
import { SaveOutcome, type SaveOutcomeProps } from "./save-outcome";

/**
 * The list page of leads and of customers: search, one select filter (a lead's stage, a
 * customer's status), tags and "Show archived" over the table, "New …" in a dialog, the outcome
 * of the last save above it; the whole view lives in the URL. Each page brings its own columns,
 * filter, query and form.
 */

type ViewKey = "page" | "limit" | "search" | "tags" | "archived";
/** A change of the view; `filter` is the page's select filter, null puts a value back to its default. */
export type RecordListPatch = Partial<Record<ViewKey | "filter", string | number | boolean | null>>;

/** Everything a record list keeps in the URL, with the defaults left out of it. */
export function useRecordListView(filterKey: string) {
  const [view, setView] = useUrlState({
    page: "1",
    limit: "50",
    search: "",
    [filterKey]: "",
    tags: "",
    archived: "false",
    // The filter's own key (stage, status) is in the URL too; it is read below as `filter`.
  } as Record<ViewKey, string>);
  const page = parseIntParam(view.page, 1);
  const limit = parseIntParam(view.limit, 50, 1, MAX_PAGE_SIZE);
  const archived = parseBoolParam(view.archived);
  const update = (patch: RecordListPatch, options?: SetUrlStateOptions) => {
    const { filter, ...rest } = patch;
    setView(filter === undefined ? rest : { ...rest, [filterKey]: filter }, options);
  };
  return {
    filterKey,
    /** As typed or linked (the inputs show these). */
    search: view.search,
    tags: view.tags,
    /** The select filter's value in the URL, not yet checked. */
    filter: (view as Record<string, string>)[filterKey] ?? "",
    page,
    limit,
    archived,
    /** The list query's parameters, but for the select filter. */
    params: { page, limit, search: view.search.trim(), tags: parseTagList(view.tags).join(","), archived },
    update,
  };
}

export type RecordListView = ReturnType<typeof useRecordListView>;

/** What the page needs of its list query (TanStack Query's result). */
interface ListQuery<T> {
  data: { data: T[]; pagination: { total: number } } | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface RecordListProps<T extends { id: string }, Result> {
  kind: RecordKind;
  description: string;
  canWrite: boolean;
  view: RecordListView;
  query: ListQuery<T>;
  columns: ColumnDef<T>[];
  searchPlaceholder: string;
  /** The select filter: its label, the "all" choice, the value it shows and filters by. */
  filter: { label: string; placeholder: string; value: string; options: readonly SelectOption[] };
  tagsPlaceholder?: string;
  /** A save's result as the outcome notice shows it. */
  outcomeOf: (result: Result) => SaveOutcomeProps["result"];
  /** The create form of the "New …" dialog. */
  renderForm: (props: { onCancel: () => void; onSaved: (result: Result) => void }) => React.ReactNode;
}

const SORTING = [{ id: "created_at", desc: true }];

export function RecordList<T extends { id: string }, Result>({
  kind,
  description,
  canWrite,
  view,
  query,
  columns,
  searchPlaceholder,
  filter,
  tagsPlaceholder,
  outcomeOf,
  renderForm,
}: RecordListProps<T, Result>) {
  const words = RECORD_WORDS[kind];
  const [creating, setCreating] = useState(false);
  const [outcome, setOutcome] = useState<Result | null>(null);
  const { page, limit, archived, params, update } = view;

  const filtered = Boolean(params.search || filter.value || params.tags || archived);
  const clearFilters = () => update({ search: null, filter: null, tags: null, archived: null, page: null });
  const newButton = <Button onClick={() => setCreating(true)}>New {words.one}</Button>;

  const toolbar = (
    <FilterBar>
      <SearchFilter
        id={`${words.many}-search`}
        placeholder={searchPlaceholder}
        value={view.search}
        onChange={(search) => update({ search, page: null })}
      />
      <FilterField id={`${words.many}-${view.filterKey}`} label={filter.label}>
        <Select
          id={`${words.many}-${view.filterKey}`}
          value={filter.value}
          onChange={(e) => update({ filter: e.target.value, page: null })}
          placeholder={filter.placeholder}
          options={filter.options}
        />
      </FilterField>
      <TagsFilter
        id={`${words.many}-tags`}
        placeholder={tagsPlaceholder}
        value={view.tags}
        onChange={(tags) => update({ tags, page: null })}
      />
      <Checkbox
        className="pb-2.5"
        label="Show archived"
        checked={archived}
        onChange={(e) => update({ archived: e.target.checked, page: null })}
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
      <PageHeader title={words.Many} description={description} actions={canWrite ? newButton : null} />

      {outcome ? (
        <SaveOutcome
          className="mb-4"
          kind={kind}
          result={outcomeOf(outcome)}
          onDismiss={() => setOutcome(null)}
        />
      ) : null}

      {page > 1 && query.data && query.data.data.length === 0 && query.data.pagination.total > 0 ? (
        <Notice tone="info" className="mb-4">
          This page is past the end of the list.{" "}
          <Button variant="secondary" size="sm" onClick={() => update({ page: null })}>
            Go to the first page
          </Button>
        </Notice>
      ) : null}

      <DataTable
        label={words.Many}
        columns={columns}
        {...listQueryProps(query)}
        getRowId={(record) => record.id}
        storageKey={words.many}
        sorting={SORTING}
        rowHref={(record) => recordHref(kind, record.id)}
        toolbar={toolbar}
        pagination={{
          page,
          pageSize: limit,
          total: query.data?.pagination.total,
          pageSizes: DEFAULT_PAGE_SIZES,
          noun: words.many,
          onChange: (nextPage, nextSize) =>
            update({ page: nextPage, limit: nextSize }, { history: nextSize === limit ? "push" : "replace" }),
        }}
        emptyState={
          filtered ? (
            <EmptyState
              title={`No ${words.many} match these filters`}
              description="Try another search, or clear the filters."
              action={
                <Button variant="secondary" size="sm" onClick={clearFilters}>
                  Clear filters
                </Button>
              }
            />
          ) : (
            <EmptyState
              title={`No ${words.many} yet`}
              description={`${words.Many} you add, or that your other tools send through the API, show up here.`}
              action={canWrite ? newButton : undefined}
            />
          )
        }
      />

      <Dialog
        open={creating}
        onClose={() => setCreating(false)}
        title={`New ${words.one}`}
        description={`If a ${words.one} with the same phone or email exists, it is updated instead (tags are merged).`}
        size="lg"
      >
        {renderForm({
          onCancel: () => setCreating(false),
          onSaved: (result) => {
            setCreating(false);
            setOutcome(result);
          },
        })}
      </Dialog>
    </div>
  );
}

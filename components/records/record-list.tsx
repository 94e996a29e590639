"use client";

import type { ColumnDef, SortingState } from "@tanstack/react-table";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { formatSort, parseSort } from "@/components/data-table/api-sort";
import { listQueryProps } from "@/components/data-table/query-props";
import {
  CollapsibleFilterBar,
  FilterField,
  SearchFilter,
  TagsFilter,
} from "@/components/data-table/table-filters";
import { type CardLayout, DEFAULT_PAGE_SIZES } from "@/components/data-table/types";
import { PageHeader } from "@/components/shell/page-header";
import {
  Button,
  buttonClasses,
  Checkbox,
  Dialog,
  EmptyState,
  Notice,
  Select,
  type SelectOption,
} from "@/components/ui";
import { useImportTypes } from "@/lib/query/imports";
import { parseTagList } from "@/lib/values/normalize";
import { type SetUrlStateOptions, parseBoolParam, parseIntParam, useUrlState } from "@/lib/query/url-state";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { type RecordKind, RECORD_WORDS, recordHref, recordListHref, rememberListView } from "./record-kind";
import { SaveOutcome, type SaveOutcomeProps } from "./save-outcome";

// The leads and customers list page: search, filters and table, "New …" in a dialog, the last
// save's outcome; the whole view lives in the URL. Each page brings its own columns and form.

type ViewKey = "page" | "limit" | "search" | "tags" | "archived" | "sort";
/** A change of the view; `filter` is the page's select filter, null puts a value back to its default. */
export type RecordListPatch = Partial<Record<ViewKey | "filter", string | number | boolean | null>>;

/**
 * Everything a record list keeps in the URL, with the defaults left out of it. `sortFields`: the
 * fields the list's API sorts by (its `sort`), whose columns sort on a click of their header.
 */
export function useRecordListView(filterKey: string, sortFields: readonly string[]) {
  const [view, setView] = useUrlState({
    page: "1",
    limit: "50",
    search: "",
    [filterKey]: "",
    tags: "",
    archived: "false",
    sort: "",
    // The filter's own key (stage, status) is in the URL too; it is read below as `filter`.
  } as Record<ViewKey, string>);
  const page = parseIntParam(view.page, 1);
  const limit = parseIntParam(view.limit, 50, 1, MAX_PAGE_SIZE);
  const archived = parseBoolParam(view.archived);
  const sorting = parseSort(view.sort, sortFields);
  const update = (patch: RecordListPatch, options?: SetUrlStateOptions) => {
    const { filter, ...rest } = patch;
    return setView(filter === undefined ? rest : { ...rest, [filterKey]: filter }, options);
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
    /** The order as the URL names it (fields the list does not sort by left out); empty: newest first. */
    sorting,
    sortFields,
    /** The list query's parameters, but for the select filter. */
    params: {
      page,
      limit,
      search: view.search.trim(),
      tags: parseTagList(view.tags).join(","),
      archived,
      sort: formatSort(sorting),
    },
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
  /** The columns of a row's card on phones. */
  cardLayout: CardLayout;
  searchPlaceholder: string;
  /** The select filter: its label, the "all" choice, the value it shows and filters by. */
  filter: { label: string; placeholder: string; value: string; options: readonly SelectOption[] };
  tagsPlaceholder?: string;
  /** A save's result as the outcome notice shows it. */
  outcomeOf: (result: Result) => SaveOutcomeProps["result"];
  /** The create form of the "New …" dialog. */
  renderForm: (props: { onCancel: () => void; onSaved: (result: Result) => void }) => React.ReactNode;
  /** The bulk bar: above the table, kept in view while scrolling (at the bottom on a phone). */
  beforeTable?: React.ReactNode;
  /** Beside "New …" in the header (the leads' Table/Board switch). */
  headerActions?: React.ReactNode;
  /** Shown instead of the table, under the same filters (the leads board). */
  alternateView?: React.ReactNode;
  /**
   * More filters of the page's own, after the others: whether one is set (and how many, for the
   * phone's "Filters" count; one when left out) and how to clear them.
   */
  extraFilters?: { node: React.ReactNode; active: boolean; count?: number; clear: () => void };
  /** The order when the URL names none (default: newest first). */
  defaultSorting?: SortingState;
}

/** The order without a `sort`: newest first. */
const NEWEST_FIRST: SortingState = [{ id: "created_at", desc: true }];

export function RecordList<T extends { id: string }, Result>({
  kind,
  description,
  canWrite,
  view,
  query,
  columns,
  cardLayout,
  searchPlaceholder,
  filter,
  tagsPlaceholder,
  outcomeOf,
  renderForm,
  beforeTable,
  headerActions,
  alternateView,
  extraFilters,
  defaultSorting = NEWEST_FIRST,
}: RecordListProps<T, Result>) {
  const words = RECORD_WORDS[kind];
  const [creating, setCreating] = useState(false);
  const [outcome, setOutcome] = useState<Result | null>(null);
  const { page, limit, archived, params, update } = view;
  const searchParams = useSearchParams();
  useEffect(() => {
    const query = searchParams.toString();
    rememberListView(kind, `${recordListHref(kind)}${query ? `?${query}` : ""}`);
  }, [kind, searchParams]);

  const filtered = Boolean(params.search || filter.value || params.tags || archived || extraFilters?.active);
  // The page's own filters join the same history entry (useUrlState): Back undoes the whole clear.
  const clearFilters = () => {
    update({ search: null, filter: null, tags: null, archived: null, page: null });
    extraFilters?.clear();
  };
  // API-sortable headers are buttons. The default order's column starts the other way, else its
  // first click would clear the sort back to the same order.
  const sortableColumns = columns.map((column) => ({
    ...column,
    enableSorting: view.sortFields.includes(column.id ?? ""),
    sortDescFirst: defaultSorting.some((s) => s.id === column.id && s.desc) ? true : column.sortDescFirst,
  }));
  const newButton = <Button onClick={() => setCreating(true)}>New {words.one}</Button>;
  // Admins and managers bring a spreadsheet of these in on the import page.
  const canImport = useImportTypes().includes(words.many);
  const importLink = canImport ? (
    <Link href={`/import?type=${words.many}`} className={buttonClasses("secondary")}>
      Import CSV
    </Link>
  ) : null;

  // The filters behind the phone's "Filters" button (the search box stays in view).
  const collapsedActive =
    [filter.value, params.tags, archived].filter(Boolean).length +
    (extraFilters?.count ?? (extraFilters?.active ? 1 : 0));
  const toolbar = (
    <CollapsibleFilterBar
      id={`${words.many}-filters`}
      active={collapsedActive}
      lead={
        <SearchFilter
          id={`${words.many}-search`}
          className="min-w-0 flex-1 sm:flex-none"
          placeholder={searchPlaceholder}
          value={view.search}
          onChange={(search) => update({ search, page: null })}
        />
      }
    >
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
      {extraFilters?.node}
      {filtered ? (
        <Button variant="ghost" size="sm" className="mb-1" onClick={clearFilters}>
          Clear filters
        </Button>
      ) : null}
    </CollapsibleFilterBar>
  );

  return (
    <div>
      <PageHeader
        title={words.Many}
        description={description}
        actions={
          headerActions || canWrite || importLink ? (
            <>
              {headerActions}
              {importLink}
              {canWrite ? newButton : null}
            </>
          ) : null
        }
      />

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

      {alternateView ? (
        <section aria-label={`${words.Many} filters`} className="mb-4 flex min-w-0">
          {toolbar}
        </section>
      ) : null}
      {alternateView ?? (
        // A column, so that on a phone the bulk bar can come after the cards and stick to the
        // bottom of the screen (within reach of a thumb); from sm up it sticks under the header.
        <div className="flex flex-col">
          {beforeTable ? (
            <div className="sticky z-20 flex flex-col gap-2 bg-slate-50 py-2 empty:hidden max-sm:bottom-0 max-sm:order-last max-sm:pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:top-16 sm:mb-1">
              {beforeTable}
            </div>
          ) : null}
          <DataTable
            label={words.Many}
            columns={sortableColumns}
            cardLayout={cardLayout}
            {...listQueryProps(query)}
            getRowId={(record) => record.id}
            storageKey={words.many}
            sorting={view.sorting.length > 0 ? view.sorting : defaultSorting}
            onSortingChange={(sorting) =>
              update({ sort: formatSort(sorting) || null, page: null }, { history: "push" })
            }
            rowHref={(record) => recordHref(kind, record.id)}
            toolbar={toolbar}
            pagination={{
              page,
              pageSize: limit,
              total: query.data?.pagination.total,
              pageSizes: DEFAULT_PAGE_SIZES,
              noun: words.many,
              onChange: (nextPage, nextSize) =>
                update(
                  { page: nextPage, limit: nextSize },
                  { history: nextSize === limit ? "push" : "replace" },
                ),
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
        </div>
      )}

      <Dialog
        open={creating}
        onClose={() => setCreating(false)}
        title={`New ${words.one}`}
        description={`If a ${words.one} with the same phone or email exists, you are asked whether to update it.`}
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

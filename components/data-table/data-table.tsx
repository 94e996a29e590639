"use client";

import {
  type ColumnDef,
  type Row,
  type SortingState,
  type VisibilityState,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import { Fragment, type MouseEvent, type ReactNode, useId } from "react";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { SM_UP, useMediaQuery } from "@/components/ui/use-media-query";
import { ColumnVisibilityMenu } from "./column-visibility-menu";
import { DataCardControls, DataCardList } from "./data-card-list";
import { DataTablePagination, type DataTablePaginationProps } from "./data-table-pagination";
import type { CardLayout } from "./types";
import { useColumnVisibility } from "./use-column-visibility";

/**
 * The dashboard's shared table: TanStack Table v8 in manual mode, since the server pages and sorts.
 * Adds paging, sort display, loading/empty/error states, a Columns menu, and phone cards (`cardLayout`).
 */
export interface DataTableProps<TData> {
  /** Accessible name of the table (read by screen readers as its caption). */
  label: string;
  // TanStack's ColumnDef value type differs per column; `any` is how its docs type a mixed list.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<TData, any>[];
  /** The current page's rows; undefined while nothing has loaded yet. */
  data: TData[] | undefined;
  getRowId?: (row: TData) => string;
  /** Server-side pagination; omit it for a table that shows all the rows it is given. */
  pagination?: Omit<DataTablePaginationProps, "busy">;
  /** Current sort (display); with `onSortingChange` the sortable headers become buttons. */
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  /** First load: nothing to show yet (TanStack Query's `isPending`). */
  isLoading?: boolean;
  /** Any request in flight, e.g. the next page while the previous rows are still shown. */
  isFetching?: boolean;
  /** The query's error; an ApiClientError's message is shown as is (see errorMessage). */
  error?: unknown;
  onRetry?: () => void;
  /** Shown when the page has no rows (e.g. "No leads match these filters"). */
  emptyState?: ReactNode;
  /** localStorage key for the chosen columns; without one the choice is not remembered. */
  storageKey?: string;
  defaultColumnVisibility?: VisibilityState;
  /** Makes a row open this address on click (keep a real link in one cell for keyboard users). */
  rowHref?: (row: TData) => string;
  /** Filters and actions, shown above the table beside the Columns menu; they wrap on phones. */
  toolbar?: ReactNode;
  /**
   * Rows that open to show more below them. A cell toggles with `row.getToggleExpandedHandler()`;
   * the opened cell's id is `row-details-<row id>` for the toggle's aria-controls.
   */
  getRowCanExpand?: (row: Row<TData>) => boolean;
  renderExpandedRow?: (row: Row<TData>) => ReactNode;
  /** On phones, cards made of these columns instead of the table (see ./types.ts). */
  cardLayout?: CardLayout;
  /**
   * As tall as its rows, without the minimum height that keeps a list page's table steady while
   * it loads: for a few rows among other content (a record page's plans or payments).
   */
  fitRows?: boolean;
}

const SKELETON_ROWS = 8;

export function DataTable<TData>({
  label,
  columns,
  data,
  getRowId,
  pagination,
  sorting,
  onSortingChange,
  isLoading = false,
  isFetching = false,
  error = null,
  onRetry,
  emptyState = "Nothing to show.",
  storageKey,
  defaultColumnVisibility,
  rowHref,
  toolbar,
  getRowCanExpand,
  renderExpandedRow,
  cardLayout,
  fitRows = false,
}: DataTableProps<TData>) {
  const router = useRouter();
  const sortId = useId();
  // One or the other is rendered, never both: no duplicate rows for screen readers or find in
  // page. The server renders the table (it has no width); a phone swaps to cards on hydration.
  const wide = useMediaQuery(SM_UP, true);
  const cards = cardLayout && !wide ? cardLayout : undefined;
  const [columnVisibility, setColumnVisibility] = useColumnVisibility(storageKey, defaultColumnVisibility);

  // The React Compiler lint flags TanStack's instance-returning hook; it is used as documented.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<TData>({
    data: data ?? [],
    columns,
    getRowId: getRowId ? (row) => getRowId(row) : undefined,
    getCoreRowModel: getCoreRowModel(),
    getRowCanExpand,
    manualPagination: true,
    manualSorting: true,
    enableSorting: Boolean(onSortingChange),
    rowCount: pagination?.total ?? -1,
    state: {
      columnVisibility,
      sorting: sorting ?? [],
      pagination: pagination
        ? { pageIndex: pagination.page - 1, pageSize: pagination.pageSize }
        : { pageIndex: 0, pageSize: data?.length ?? 0 },
    },
    onColumnVisibilityChange: setColumnVisibility,
    onSortingChange: (updater) => {
      if (!onSortingChange) return;
      onSortingChange(typeof updater === "function" ? updater(sorting ?? []) : updater);
    },
  });

  const visibleColumnCount = Math.max(table.getVisibleLeafColumns().length, 1);
  const rows = table.getRowModel().rows;
  const showSkeleton = isLoading && !data;
  const hasError = error !== null && error !== undefined;
  const showError = hasError && !data;
  // Columns with a `footer` (e.g. sums over the whole filtered set) get a footer row.
  const hasFooter = table.getVisibleLeafColumns().some((column) => column.columnDef.footer !== undefined);

  function onRowClick(event: MouseEvent<HTMLElement>, row: Row<TData>) {
    if (!rowHref) return;
    const target = event.target as HTMLElement;
    // Links, buttons and inputs inside the row do their own thing; selecting text is not a click.
    if (target.closest("a, button, input, select, textarea, label")) return;
    if (window.getSelection()?.toString()) return;
    const href = rowHref(row.original);
    if (event.metaKey || event.ctrlKey) window.open(href, "_blank", "noopener");
    else router.push(href);
  }

  const emptyOrError = showError ? (
    <div className="sticky left-0">
      <ErrorState title={`Could not load ${label.toLowerCase()}`} error={error} onRetry={onRetry} />
    </div>
  ) : !showSkeleton && rows.length === 0 ? (
    <div className="sticky left-0 px-3 py-12 text-center text-slate-600">{emptyState}</div>
  ) : null;
  const busyBar = (className: string) =>
    isFetching && !showSkeleton ? (
      <div className={`${className} h-0.5 w-full animate-pulse bg-brand-500`} aria-hidden="true" />
    ) : null;

  return (
    <section aria-label={label} className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        {/* Filters take the whole row on phones; the Columns button then sits under them. */}
        {toolbar ? <div className="flex min-w-0 grow basis-full sm:basis-0">{toolbar}</div> : null}
        {cards ? (
          <DataCardControls table={table} layout={cards} id={sortId} />
        ) : (
          <div className="ml-auto">
            <ColumnVisibilityMenu table={table} />
          </div>
        )}
      </div>

      {hasError && data ? (
        <div
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          Could not refresh: {errorMessage(error)}{" "}
          {onRetry ? (
            <button type="button" className="font-medium underline" onClick={onRetry}>
              Retry
            </button>
          ) : null}
        </div>
      ) : null}

      {cards ? (
        <div className="relative" aria-busy={isFetching || isLoading}>
          {busyBar("absolute -top-1.5 left-0")}
          <DataCardList
            table={table}
            layout={cards}
            label={label}
            skeletonCount={showSkeleton ? Math.min(pagination?.pageSize ?? SKELETON_ROWS, 4) : 0}
            onCardClick={rowHref ? onRowClick : undefined}
          />
          {emptyOrError ? (
            <div className="rounded-lg border border-slate-200 bg-white shadow-sm">{emptyOrError}</div>
          ) : null}
        </div>
      ) : (
        /* A scrolling region: focusable so that keyboard users can scroll it, named by the table. */
        <div
          className={`relative max-h-[calc(100dvh-15rem)] ${fitRows ? "" : "min-h-48"} overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm`}
          aria-busy={isFetching || isLoading}
          role="region"
          aria-label={label}
          tabIndex={0}
        >
          {busyBar("sticky left-0 top-0 z-20")}
          <table className="w-full border-separate border-spacing-0 text-left text-sm">
            <caption className="sr-only">{label}</caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    const align = header.column.columnDef.meta?.align;
                    const content = header.isPlaceholder
                      ? null
                      : flexRender(header.column.columnDef.header, header.getContext());
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={
                          sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined
                        }
                        className={`sticky top-0 z-10 border-b border-slate-200 bg-slate-100 px-3 py-2 align-bottom text-xs font-semibold uppercase tracking-wide text-slate-600 ${
                          align === "right" ? "text-right" : ""
                        } ${header.column.columnDef.meta?.wrapHeader ? "" : "whitespace-nowrap"}`}
                      >
                        {header.column.getCanSort() ? (
                          <button
                            type="button"
                            onClick={header.column.getToggleSortingHandler()}
                            className="inline-flex items-center gap-1 uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500"
                          >
                            {content}
                            <SortArrow sorted={sorted} />
                          </button>
                        ) : (
                          <span className="inline-flex items-center gap-1">
                            {content}
                            <SortArrow sorted={sorted} />
                          </span>
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {showSkeleton
                ? Array.from(
                    { length: Math.min(pagination?.pageSize ?? SKELETON_ROWS, SKELETON_ROWS) },
                    (_, i) => (
                      <tr key={`skeleton-${i}`} aria-hidden="true">
                        {table.getVisibleLeafColumns().map((column) => (
                          <td key={column.id} className="border-b border-slate-100 px-3 py-3">
                            <div className="h-3.5 w-24 animate-pulse rounded bg-slate-200" />
                          </td>
                        ))}
                      </tr>
                    ),
                  )
                : showError || rows.length === 0
                  ? null
                  : rows.map((row) => (
                      <Fragment key={row.id}>
                        <tr
                          onClick={rowHref ? (event) => onRowClick(event, row) : undefined}
                          className={`${rowHref ? "cursor-pointer" : ""} hover:bg-brand-50/60`}
                        >
                          {row.getVisibleCells().map((cell) => {
                            const meta = cell.column.columnDef.meta;
                            return (
                              <td
                                key={cell.id}
                                className={`border-b border-slate-100 px-3 py-2 align-top ${
                                  meta?.align === "right" ? "text-right tabular-nums" : ""
                                } ${meta?.wrap ? "" : "whitespace-nowrap"} ${meta?.cellClassName ?? ""}`}
                              >
                                {flexRender(cell.column.columnDef.cell, cell.getContext())}
                              </td>
                            );
                          })}
                        </tr>
                        {renderExpandedRow && row.getIsExpanded() ? (
                          <tr>
                            <td
                              id={`row-details-${row.id}`}
                              colSpan={visibleColumnCount}
                              className="border-b border-slate-200 bg-slate-50 px-3 py-3 sm:px-12"
                            >
                              {renderExpandedRow(row)}
                            </td>
                          </tr>
                        ) : null}
                      </Fragment>
                    ))}
            </tbody>
            {hasFooter && !showSkeleton && !showError ? (
              <tfoot>
                {table.getFooterGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => (
                      <td
                        key={header.id}
                        className={`sticky bottom-0 z-10 whitespace-nowrap border-t border-slate-300 bg-slate-100 px-3 py-2 font-medium text-slate-900 ${
                          header.column.columnDef.meta?.align === "right" ? "text-right tabular-nums" : ""
                        }`}
                      >
                        {header.isPlaceholder
                          ? null
                          : flexRender(header.column.columnDef.footer, header.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
              </tfoot>
            ) : null}
          </table>
          {/* Under the table, not in a spanning cell, so on a phone it keeps to the visible width. */}
          {emptyOrError}
        </div>
      )}

      {/* Nothing to page through when the list could not load. */}
      {pagination && !showError ? <DataTablePagination {...pagination} busy={isFetching} /> : null}
    </section>
  );
}

function SortArrow({ sorted }: { sorted: false | "asc" | "desc" }) {
  if (!sorted) return null;
  return (
    <span aria-hidden="true" className="text-slate-900">
      {sorted === "asc" ? "▲" : "▼"}
    </span>
  );
}

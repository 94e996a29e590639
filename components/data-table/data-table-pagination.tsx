"use client";

import { useId } from "react";
import { formatNumber } from "@/lib/format";
import { DEFAULT_PAGE_SIZES } from "./types";

export interface DataTablePaginationProps {
  /** 1-based page, as in the API and the URL. */
  page: number;
  pageSize: number;
  /** `pagination.total` of the list response; undefined while unknown. */
  total: number | undefined;
  onChange: (page: number, pageSize: number) => void;
  pageSizes?: readonly number[];
  /** Plural noun for the count ("leads"); default "results". */
  noun?: string;
  /** The noun for exactly one; default: `noun` without its final "s" ("lead"). */
  nounOne?: string;
  busy?: boolean;
}

const buttonClass =
  "h-9 min-w-9 items-center justify-center rounded-md border border-slate-300 bg-white px-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-500";

/** Total count, page-size choice and page buttons under a server-paginated table. */
export function DataTablePagination({
  page,
  pageSize,
  total,
  onChange,
  pageSizes = DEFAULT_PAGE_SIZES,
  noun = "results",
  nounOne = noun.replace(/s$/, ""),
  busy = false,
}: DataTablePaginationProps) {
  const sizeId = useId();
  const pageCount = total === undefined ? undefined : Math.max(Math.ceil(total / pageSize), 1);
  const first = total ? Math.min((page - 1) * pageSize + 1, total) : 0;
  const last = total ? Math.min(page * pageSize, total) : 0;
  const sizes = pageSizes.includes(pageSize) ? pageSizes : [...pageSizes, pageSize].sort((a, b) => a - b);
  const canPrev = page > 1;
  const canNext = pageCount !== undefined && page < pageCount;

  return (
    <nav
      aria-label="Pagination"
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm text-slate-700"
    >
      <p aria-live="polite" aria-atomic="true" data-testid="table-total">
        {total === undefined ? (
          <span className="text-slate-500">Counting…</span>
        ) : total === 0 ? (
          <>0 {noun}</>
        ) : (
          <>
            <span className="font-medium">
              {formatNumber(first)}–{formatNumber(last)}
            </span>{" "}
            of <span className="font-medium">{formatNumber(total)}</span> {total === 1 ? nounOne : noun}
          </>
        )}
        {busy ? <span className="sr-only"> (loading)</span> : null}
      </p>

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="flex items-center gap-2">
          <label htmlFor={sizeId} className="whitespace-nowrap">
            Rows per page
          </label>
          <select
            id={sizeId}
            value={pageSize}
            onChange={(e) => onChange(1, Number(e.target.value))}
            className="h-9 rounded-md border border-slate-300 bg-white px-2 focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>

        <div className="flex items-center gap-1.5">
          <span className="whitespace-nowrap pr-1">
            Page {formatNumber(page)}
            {pageCount !== undefined ? ` of ${formatNumber(pageCount)}` : ""}
          </span>
          <button
            type="button"
            className={`${buttonClass} hidden sm:inline-flex`}
            onClick={() => onChange(1, pageSize)}
            disabled={!canPrev}
            aria-label="First page"
          >
            «
          </button>
          <button
            type="button"
            className={`${buttonClass} inline-flex`}
            onClick={() => onChange(page - 1, pageSize)}
            disabled={!canPrev}
            aria-label="Previous page"
          >
            ‹
          </button>
          <button
            type="button"
            className={`${buttonClass} inline-flex`}
            onClick={() => onChange(page + 1, pageSize)}
            disabled={!canNext}
            aria-label="Next page"
          >
            ›
          </button>
          <button
            type="button"
            className={`${buttonClass} hidden sm:inline-flex`}
            onClick={() => pageCount && onChange(pageCount, pageSize)}
            disabled={!canNext}
            aria-label="Last page"
          >
            »
          </button>
        </div>
      </div>
    </nav>
  );
}

"use client";

import { useState } from "react";
import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatNumber } from "@/lib/format";
import { downloadRefusedRows, type ImportResponse, useImportProblems } from "@/lib/query/imports";
import { IMPORT_PROBLEMS_KEPT } from "@/lib/schemas/imports";
import { matchedOnText } from "./import-steps";

type Result = NonNullable<ImportResponse["result"]>;

/** The three numbers of a dry run (would …) or an import (done). */
export function ResultNumbers({ result, done }: { result: Result; done: boolean }) {
  const matched = matchedOnText(result.matched_on);
  const items = [
    {
      key: "created",
      label: done ? "Created" : "Would create",
      value: result.created,
      tone: "text-emerald-700",
    },
    {
      key: "updated",
      label: done ? "Updated" : "Would update",
      value: result.updated,
      tone: "text-sky-700",
      note: matched ? `matched ${matched}` : undefined,
    },
    ...(done
      ? []
      : [
          {
            key: "refused",
            label: "Would refuse",
            value: result.refused,
            tone: result.refused > 0 ? "text-red-700" : "text-slate-900",
          },
        ]),
  ];
  return (
    <dl className={cn("grid gap-2 sm:gap-3", done ? "grid-cols-2" : "grid-cols-3")}>
      {items.map((item) => (
        <div
          key={item.key}
          data-testid={`result-${item.key}`}
          className={cn(
            "min-w-0 rounded-lg border px-3 py-3 sm:px-4",
            item.key === "refused" && item.value > 0
              ? "border-red-200 bg-red-50"
              : "border-slate-200 bg-white",
          )}
        >
          <dt className="text-sm text-slate-600">{item.label}</dt>
          <dd className={cn("mt-1 text-xl font-semibold tabular-nums sm:text-2xl", item.tone)}>
            {formatNumber(item.value)}
          </dd>
          {"note" in item && item.note ? (
            <dd className="mt-0.5 text-xs text-slate-500">{item.note}</dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}

const PAGE_SIZES = [10, 25, 50, 100] as const;

/** The refused rows of the last dry run (row, column, reason), a page at a time, and their download. */
export function RefusedRows({ imported }: { imported: ImportResponse }) {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(10);
  const problems = useImportProblems(imported.id, page, limit);
  const [downloading, setDownloading] = useState(false);
  const { notify } = useToast();
  const refused = imported.result?.refused ?? 0;

  const download = async () => {
    setDownloading(true);
    try {
      await downloadRefusedRows(imported);
    } catch (error) {
      notify({
        title: "Could not download the refused rows",
        description: (error as Error).message,
        tone: "danger",
      });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="refused-heading" className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <h3 id="refused-heading" className="text-sm font-semibold text-slate-900">
          Refused rows ({formatNumber(refused)})
        </h3>
        <Button variant="secondary" size="sm" loading={downloading} onClick={download}>
          <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
            <path
              d="M10 3v10m0 0l-4-4m4 4l4-4M4 15v2h12v-2"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
            />
          </svg>
          Download refused rows
        </Button>
      </div>
      {imported.problem_count > IMPORT_PROBLEMS_KEPT ? (
        <p className="text-sm text-slate-600">
          {formatNumber(imported.problem_count)} problems in all: the list and the download hold the first{" "}
          {formatNumber(IMPORT_PROBLEMS_KEPT)}.
        </p>
      ) : null}
      {problems.isPending ? (
        <LoadingBlock label="Loading the refused rows" />
      ) : problems.isError ? (
        <ErrorState
          error={problems.error}
          title="Could not load the refused rows"
          onRetry={() => problems.refetch()}
        />
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-slate-200">
            <table aria-label="Refused rows" className="w-full text-left text-sm">
              <thead>
                <tr>
                  <Th className="w-16">Row</Th>
                  <Th className="w-1/4">Column</Th>
                  <Th>Problem</Th>
                </tr>
              </thead>
              <tbody>
                {problems.data.data.map((problem, i) => (
                  <tr key={`${problem.row}-${problem.column ?? ""}-${i}`}>
                    <Td className="tabular-nums">{formatNumber(problem.row)}</Td>
                    <Td className="break-words">
                      {problem.column ?? <span className="text-slate-400">—</span>}
                    </Td>
                    <Td className="break-words text-slate-800">{problem.reason}</Td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <DataTablePagination
            page={page}
            pageSize={limit}
            total={problems.data.pagination.total}
            pageSizes={PAGE_SIZES}
            noun="problems"
            busy={problems.isFetching}
            onChange={(nextPage, nextLimit) => {
              setPage(nextPage);
              setLimit(nextLimit);
            }}
          />
        </>
      )}
    </section>
  );
}

function Th({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <th
      scope="col"
      className={cn(
        "border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase sm:px-4",
        className,
      )}
    >
      {children}
    </th>
  );
}

function Td({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <td className={cn("border-b border-slate-100 px-3 py-2.5 align-top text-slate-700 sm:px-4", className)}>
      {children}
    </td>
  );
}

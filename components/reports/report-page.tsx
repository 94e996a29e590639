"use client";

import { PageHeader } from "@/components/shell/page-header";
import { ErrorState } from "@/components/ui/error-state";

/**
 * The frame of a report page: the header with its export, the filters, the headline numbers and
 * charts from the report endpoint (or why they could not load), and the table of the records.
 */
export function ReportPage({
  title,
  description,
  actions,
  filters,
  report,
  summary,
  table,
}: {
  title: string;
  description: string;
  actions: React.ReactNode;
  filters: React.ReactNode;
  /** The report query: while it has nothing to show and failed, the error replaces the summary. */
  report: { data: unknown; error: unknown; refetch: () => unknown };
  summary: React.ReactNode;
  table: React.ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      <div className="flex flex-col gap-6">
        {filters}
        {report.error && !report.data ? (
          <ErrorState
            error={report.error}
            title="Could not load the report"
            onRetry={() => void report.refetch()}
          />
        ) : (
          summary
        )}
        {table}
      </div>
    </>
  );
}

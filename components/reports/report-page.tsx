"use client";

import { filterErrors } from "@/components/reports/report-filters";
import { PageHeader } from "@/components/shell/page-header";
import { ErrorState } from "@/components/ui/error-state";
import { Notice } from "@/components/ui/notice";

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
  /**
   * The report query: refused filters (filterErrors, shown beside them) replace the summary with
   * a notice; any other failure, while there is nothing to show, with the error.
   */
  report: { data: unknown; error: unknown; refetch: () => unknown };
  summary: React.ReactNode;
  table: React.ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      <div className="flex flex-col gap-6">
        {filters}
        {Object.keys(filterErrors(report.error)).length > 0 ? (
          // The filters say what is wrong beside each field; no numbers for a set that is not one.
          <Notice tone="warning" title="No report for these filters">
            Correct the filters marked above to see the numbers.
          </Notice>
        ) : report.error && !report.data ? (
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

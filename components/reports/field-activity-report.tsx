"use client";

import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { formatSort, parseSort } from "@/components/data-table/api-sort";
import { ChartCard } from "@/components/reports/chart-card";
import { ExportButton } from "@/components/reports/export-button";
import {
  fieldActivityColumns,
  leaderboardValue,
  outcomeColumnId,
  type LeaderboardRow,
} from "@/components/reports/field-activity-columns";
import { FieldActivityFunnel } from "@/components/reports/field-activity-funnel";
import {
  currentMonthRange,
  outcomeColumns,
  sortRows,
  type FieldActivityTotals,
} from "@/components/reports/field-activity-numbers";
import {
  ReportFilters,
  datePairControls,
  filterErrors,
  type FilterControl,
} from "@/components/reports/report-filters";
import { ReportPage } from "@/components/reports/report-page";
import { SummaryCards, type SummaryCard } from "@/components/reports/summary-cards";
import { NotAllowed } from "@/components/shell/not-allowed";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { formatMoney, formatNumber } from "@/lib/format";
import { usePinTypes } from "@/lib/query/pins";
import { useFieldActivityReport, type FieldActivityFilterValues } from "@/lib/query/reports";
import { useTerritories } from "@/lib/query/territories";
import { useCan, useSession } from "@/lib/query/session";
import { useUrlState } from "@/lib/query/url-state";

/**
 * Knock to cash (extensions.md E7) per rep over a date range (this month by default) and a territory, all
 * from GET /api/reports/field-activity; the leaderboard is sorted here since the report is one page.
 */

const DEFAULT_SORT = "-collected";

/** The headline numbers: the report's totals, in the funnel's order. */
const CARDS: readonly {
  key: Exclude<keyof FieldActivityTotals, "knocks_by_pin_type">;
  label: string;
  money?: boolean;
}[] = [
  { key: "knocks", label: "Knocks" },
  { key: "leads", label: "Leads" },
  { key: "won", label: "Won" },
  { key: "customers", label: "Customers" },
  { key: "sale_value", label: "Sale value", money: true },
  { key: "collected", label: "Collected", money: true },
];
const SORTABLE = ["rep", "knocks", "leads", "won", "customers", "sale_value", "collected"];

/** Admins and managers read reports (reports:read); the others see why they cannot. */
export function FieldActivityReportView() {
  const { data: session } = useSession();
  const canRead = useCan("reports:read");
  if (session && !canRead)
    return <NotAllowed what="the Knock to cash report" who="administrators and managers" />;
  return <FieldActivityReport />;
}

function FieldActivityReport() {
  const month = currentMonthRange(new Date());
  const [view, setView] = useUrlState({ ...month, territory_id: "", sort: DEFAULT_SORT });
  const filters: FieldActivityFilterValues = {
    from: view.from,
    to: view.to,
    territory_id: view.territory_id,
  };

  const report = useFieldActivityReport(filters);
  const territories = useTerritories();
  const pinTypes = usePinTypes();
  const data = report.data;
  const totals = data?.totals;

  const outcomes = useMemo(
    () => outcomeColumns(pinTypes.data ?? [], totals?.knocks_by_pin_type ?? {}),
    [pinTypes.data, totals],
  );
  const columns = useMemo(
    () => fieldActivityColumns(totals, data?.data.length, outcomes),
    [totals, data, outcomes],
  );
  const sorting = useMemo(
    () => parseSort(view.sort, [...SORTABLE, ...outcomes.map((o) => outcomeColumnId(o.pinTypeId))]),
    [view.sort, outcomes],
  );
  const rows = useMemo(() => {
    const ranked = (data?.data ?? []).map((row, index): LeaderboardRow => ({ ...row, rank: index + 1 }));
    return sortRows(ranked, sorting, leaderboardValue);
  }, [data, sorting]);

  const errors = filterErrors(report.error);
  const controls: FilterControl[] = [
    ...datePairControls(
      { key: "from", label: "From", value: view.from },
      { key: "to", label: "To", value: view.to },
      errors,
    ),
    {
      kind: "select",
      key: "territory_id",
      label: "Territory",
      value: view.territory_id,
      placeholder: "All territories",
      options: (territories.data ?? []).map((t) => ({ value: t.id, label: t.name })),
      error: errors.territory_id,
    },
  ];
  const changed = view.from !== month.from || view.to !== month.to || Boolean(view.territory_id);

  const cards = CARDS.map(({ key, label, money }): SummaryCard => ({
    key,
    label,
    value: totals?.[key],
    display: money ? formatMoney(totals?.[key]) : formatNumber(totals?.[key]),
    tone: key === "collected" ? "good" : "default",
  }));
  const empty = data !== undefined && data.data.length === 0;

  return (
    <ReportPage
      title="Knock to cash"
      description="Per rep: doors knocked and their outcomes, the leads, sales and money that came of them."
      actions={<ExportButton kind="field-activity" filters={filters} />}
      filters={
        <ReportFilters
          controls={controls}
          // An emptied date picker goes back to this month's bound, not to "no bound".
          onChange={(key, value) => setView({ [key]: value || null })}
          onClear={changed ? () => setView({ from: null, to: null, territory_id: null }) : undefined}
        />
      }
      report={report}
      summary={
        empty ? (
          <Card as="div" data-testid="field-activity-empty">
            <EmptyState
              title="No field activity in this range"
              description="Nobody knocked, got a lead, sold or collected between these dates. Try a longer range or another territory."
            />
          </Card>
        ) : (
          <>
            <SummaryCards
              label="Totals"
              cards={cards}
              loading={report.isFetching}
              className="sm:grid-cols-3 xl:grid-cols-6"
            />
            {data ? (
              <ChartCard
                title="From knock to cash"
                description="Everyone in the range; conversion from the step before"
              >
                <FieldActivityFunnel totals={data.totals} conversion={data.conversion} />
              </ChartCard>
            ) : null}
          </>
        )
      }
      table={
        empty || (report.error && !data) ? null : (
          <section aria-labelledby="leaderboard-heading" className="flex flex-col gap-2">
            <div>
              <h2 id="leaderboard-heading" className="text-base font-semibold text-slate-900">
                Leaderboard
              </h2>
              <p className="text-sm text-slate-500">
                By money collected. In the totals a lead two reps share (one knocked, one owns it) counts
                once.
              </p>
            </div>
            <DataTable
              label="Reps"
              columns={columns}
              data={data ? rows : undefined}
              isLoading={report.isPending}
              isFetching={report.isFetching}
              getRowId={(row) => row.user.user_id}
              storageKey="report-field-activity"
              sorting={sorting}
              onSortingChange={(next) => setView({ sort: formatSort(next) || DEFAULT_SORT })}
              cardLayout={{
                title: "rep",
                fields: ["knocks", "leads", "won", "customers", "sale_value", "collected"],
              }}
              fitRows
            />
          </section>
        )
      }
    />
  );
}

import { SERVICED_JOB_CSV_HEADER, SERVICE_PLAN_CSV_HEADER } from "@/lib/domain/reports/exports";
import {
  getServicedJobReportQuerySchema,
  getServicedJobsExportQuerySchema,
  getServicePlanReportQuerySchema,
  getServicePlansExportQuerySchema,
  servicedJobReportSchema,
  servicePlanReportSchema,
} from "@/lib/schemas/reports";
import { named, type ResourceSpec } from "../types";

const CSV_HEADERS = {
  "Content-Disposition": 'attachment; filename="<name>-YYYY-MM-DD.csv" (today, UTC).',
};

export const reportsPaths: ResourceSpec = {
  tag: "Reports",
  description:
    "Totals and breakdowns over the whole filtered set of plans or jobs, computed by the database, and " +
    "CSV exports of every matching row. They take the filters of the list endpoints, without pagination.",
  endpoints: [
    {
      method: "GET",
      path: "/reports/service-plans",
      operationId: "getServicePlanReport",
      summary: "Service plan report",
      description:
        "For every plan matching the filters of `GET /service-plans`: plan count, sale value, money received, " +
        "collection rate and job counts, broken down by frequency, by service type and by sales rep (a " +
        "leaderboard by money collected). The numbers are the list's numbers, summed.",
      scopes: ["service_plans:read"],
      query: getServicePlanReportQuerySchema,
      responses: [
        {
          status: 200,
          description: "The report.",
          schema: named("ServicePlanReport", servicePlanReportSchema),
        },
      ],
      example: { query: { status: "active", created_at_range_start: "2026-01-01" } },
    },
    {
      method: "GET",
      path: "/reports/service-plans/export",
      operationId: "exportServicePlans",
      summary: "Export service plans as CSV",
      description:
        "Every plan matching the filters of `GET /service-plans` (all rows, not one page), in the list's " +
        "order and with the list's numbers, streamed as CSV (RFC 4180, CRLF; money with two decimals). Text " +
        "that a spreadsheet would run as a formula starts with a single quote.",
      scopes: ["service_plans:read"],
      query: getServicePlansExportQuerySchema,
      responses: [
        {
          status: 200,
          description: "The CSV file.",
          contentType: "text/csv",
          csvColumns: SERVICE_PLAN_CSV_HEADER,
          headers: CSV_HEADERS,
        },
      ],
      example: { query: { frequency: "Monthly" } },
    },
    {
      method: "GET",
      path: "/reports/serviced-jobs",
      operationId: "getServicedJobReport",
      summary: "Serviced job report",
      description:
        "For every job matching the filters of `GET /serviced-jobs`: job count, total, received and " +
        "outstanding money, per week or month of the service date (`interval`), and per technician.",
      scopes: ["jobs:read"],
      query: getServicedJobReportQuerySchema,
      responses: [
        {
          status: 200,
          description: "The report.",
          schema: named("ServicedJobReport", servicedJobReportSchema),
        },
      ],
      example: {
        query: { only_completed: "true", interval: "week", service_date_range_start: "2026-01-01" },
      },
    },
    {
      method: "GET",
      path: "/reports/serviced-jobs/export",
      operationId: "exportServicedJobs",
      summary: "Export serviced jobs as CSV",
      description:
        "Every job matching the filters of `GET /serviced-jobs` (all rows, not one page), in the list's default " +
        "order (newest first; `sort` does not apply), " +
        "streamed as CSV (RFC 4180, CRLF; money with two decimals).",
      scopes: ["jobs:read"],
      query: getServicedJobsExportQuerySchema,
      responses: [
        {
          status: 200,
          description: "The CSV file.",
          contentType: "text/csv",
          csvColumns: SERVICED_JOB_CSV_HEADER,
          headers: CSV_HEADERS,
        },
      ],
      example: { query: { only_completed: "false" } },
    },
  ],
};

import { SERVICED_JOB_CSV_HEADER, SERVICE_PLAN_CSV_HEADER } from "@/lib/domain/reports/exports";
import { FIELD_ACTIVITY_CSV_HEADER } from "@/lib/domain/reports/field-activity";
import {
  fieldActivityReportSchema,
  getFieldActivityReportQuerySchema,
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
    "CSV exports of every matching row. They take the filters of the list endpoints, without pagination. " +
    "A date range whose start is after its end is a 400 naming the end.",
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
    {
      method: "GET",
      path: "/reports/field-activity",
      operationId: "getFieldActivityReport",
      summary: "Knock-to-cash report",
      description: [
        "From knock to cash, per user, over `from`..`to` (both optional, inclusive; a bare `to` date is its " +
          "whole UTC day): one row per user who knocked, got a lead, sold or collected money (net, not zero) " +
          "in the range, as a leaderboard by money collected.",
        "`knocks`: the user's visits (a pin's create and each change of its type), per pin type too. " +
          "`leads`: leads created in the range that are assigned to the user or were made from a pin the user " +
          "created (archived ones too); `won`: of those, the ones now in a stage of kind `won`; `customers`: " +
          "the customers converted from them. `sale_value`: the sale value (as `GET /reports/service-plans`) " +
          "of the plans the user sold, created in the range. `collected`: succeeded payments minus succeeded " +
          "refunds dated in the range on the jobs of the plans the user sold (quotes and archived jobs left " +
          "out, as `GET /reports/serviced-jobs` nets them).",
        "`territory_id`: knocks at pins inside the territory, leads whose location is inside it, and the plans " +
          "and payments of customers whose property location is inside it (the edge counts as inside; records " +
          "without a location never match). `totals` sums the rows, except that a lead or customer credited to " +
          "two users (a pin's creator and the lead's owner) counts once.",
      ].join("\n\n"),
      scopes: ["reports:read"],
      query: getFieldActivityReportQuerySchema,
      notFound: "Territory",
      responses: [
        {
          status: 200,
          description: "The report.",
          schema: named("FieldActivityReport", fieldActivityReportSchema),
        },
      ],
      example: { query: { from: "2026-03-01", to: "2026-03-31" } },
    },
    {
      method: "GET",
      path: "/reports/field-activity/export",
      operationId: "exportFieldActivity",
      summary: "Export the knock-to-cash report as CSV",
      description:
        "The rows of `GET /reports/field-activity` with the same query, in its order, then a row `Total` " +
        "(no user id or email) with its totals; `knocks_by_pin_type` is a JSON object. RFC 4180, CRLF; " +
        "money with two decimals.",
      scopes: ["reports:read"],
      query: getFieldActivityReportQuerySchema,
      notFound: "Territory",
      responses: [
        {
          status: 200,
          description: "The CSV file.",
          contentType: "text/csv",
          csvColumns: FIELD_ACTIVITY_CSV_HEADER,
          headers: CSV_HEADERS,
        },
      ],
      example: { query: { from: "2026-03-01", to: "2026-03-31" } },
    },
  ],
};

import "server-only";
import type { ApiTag } from "@/lib/api/route-docs";
import { customerDetailSchema, customerDryRunResponseSchema, customerSchema } from "@/lib/schemas/customers";
import { importResponseSchema } from "@/lib/schemas/imports";
import { convertLeadDryRunResponseSchema } from "@/lib/schemas/lead-convert";
import { assignableUserSchema } from "@/lib/schemas/lead-owners";
import { leadDryRunResponseSchema, leadSchema } from "@/lib/schemas/leads";
import { pinTypeRecordSchema, pinTypeSchema } from "@/lib/schemas/pin-types";
import { pinSchema, pinVisitSchema } from "@/lib/schemas/pins";
import { stageSchema } from "@/lib/schemas/pipeline";
import { customerRefSchema, servicePlanSchema, userRefSchema } from "@/lib/schemas/service-plans";
import { jobLineItemSchema, jobPaymentSchema, servicedJobSchema } from "@/lib/schemas/serviced-jobs";
import { sessionInfoSchema } from "@/lib/schemas/session";
import { apiKeyRecordSchema, userRecordSchema } from "@/lib/schemas/settings";
import { territorySchema } from "@/lib/schemas/territories";
import { named, type NamedSchema } from "./types";

export interface ResourceTag {
  description: string;
  /** Records shared by several responses, shown under components.schemas. */
  components?: NamedSchema[];
}

/** The groups of the reference, in its order; each route's docs name their group. */
export const RESOURCES: Readonly<Record<ApiTag, ResourceTag>> = {
  Authentication: {
    description: "Check which company and scopes a key (or a dashboard session) carries.",
  },
  Leads: {
    description:
      "Sales prospects in the pipeline: create-or-update, list with filters, get by id, totals per stage.",
    components: [
      named("Lead", leadSchema),
      // Dry-run answers are their own schemas, so clients tell them from updates by `dry_run`.
      named("LeadDryRunResponse", leadDryRunResponseSchema),
      named("ConvertLeadDryRunResponse", convertLeadDryRunResponseSchema),
    ],
  },
  Pipeline: {
    description:
      "The company's lead pipeline: ordered stages, each with a key, label, color and kind (open, won, lost). " +
      "A lead's `stage` holds a stage's key: create-or-update stores a value equal (ignoring case and " +
      "surrounding spaces) to a stage's key or label as that key; any other string is kept as given.",
    components: [named("Stage", stageSchema)],
  },
  Customers: {
    description: "Customers with their property and billing address: create-or-update, list, get by id.",
    components: [
      named("Customer", customerSchema),
      named("CustomerDetail", customerDetailSchema),
      named("CustomerDryRunResponse", customerDryRunResponseSchema),
    ],
  },
  "Service plans": {
    description: "Recurring service agreements with their job counts, contract value and money received.",
    components: [
      named("ServicePlan", servicePlanSchema),
      named("CustomerRef", customerRefSchema),
      named("UserRef", userRefSchema),
    ],
  },
  "Serviced jobs": {
    description: "Jobs with their technicians, line items, payments and balances.",
    components: [
      named("ServicedJob", servicedJobSchema),
      named("JobLineItem", jobLineItemSchema),
      named("JobPayment", jobPaymentSchema),
    ],
  },
  Pins: {
    description:
      "Map pins: each door knocked, with its outcome (pin type), address, notes and the lead made from it. " +
      "A pin's visits are its history: its creation and each change of its pin type.",
    components: [named("Pin", pinSchema), named("PinVisit", pinVisitSchema)],
  },
  "Pin types": {
    description:
      "The kinds of map pins (the outcomes of a knock) and their colors. Admins manage them in the settings " +
      "(`PUT /settings/pin-types`).",
    components: [named("PinType", pinTypeSchema), named("PinTypeRecord", pinTypeRecordSchema)],
  },
  Territories: {
    description:
      "Named areas of the map, drawn by admins and managers, with the users assigned to them. " +
      "`territory_id` filters `GET /leads` (and the lead board and bulk filters) to the records whose " +
      "location lies inside, its edge included.",
    components: [named("Territory", territorySchema)],
  },
  Users: {
    description: "The people leads are assigned to (a lead's `assigned_to`).",
    components: [named("AssignableUser", assignableUserSchema)],
  },
  Reports: {
    description:
      "Totals and breakdowns over the whole filtered set of plans or jobs, computed by the database, and " +
      "CSV exports of every matching row. They take the filters of the list endpoints, without pagination. " +
      "A date range whose start is after its end is a 400 naming the end.",
  },
  Imports: {
    description:
      "CSV import of leads or customers (a spreadsheet, another CRM's export): upload the file, map its columns " +
      "to fields, check it with a dry run (what would be created, updated and refused, row by row), then import " +
      "it all or nothing. Dry runs and imports run in the background: poll the import for its progress. One " +
      "import per company is checked or imported at a time. Dashboard admins and managers, or an API key with " +
      "`leads:write` (leads) or `customers:write` (customers).",
    components: [named("Import", importResponseSchema)],
  },
  "Dashboard session": {
    description:
      "Sign-in and sign-out of the dashboard. The session cookie then authenticates the same endpoints as a key, " +
      "with the scopes of the user's role.",
    components: [named("SessionInfo", sessionInfoSchema)],
  },
  Settings: {
    description:
      "API keys, dashboard users, the lead pipeline and the pin types of the company. Dashboard only: a signed-in admin's session; an API key or " +
      "another role gets 403 FORBIDDEN.",
    components: [named("ApiKey", apiKeyRecordSchema), named("User", userRecordSchema)],
  },
  Meta: {
    description: "The machine-readable description of this API.",
  },
};

/** The Content-Disposition of a CSV export, shared by the export routes' docs. */
export const CSV_EXPORT_HEADERS = {
  "Content-Disposition": 'attachment; filename="<name>-YYYY-MM-DD.csv" (today, UTC).',
};

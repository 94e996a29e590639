import "server-only";
import type { DomainContext } from "@/lib/domain/context";
import { leads } from "@/lib/db/schema";
import { PROPERTY_ADDRESS_KEYS } from "@/lib/db/schema/columns";
import { cents, iso } from "@/lib/schemas/common";
import { LEAD_MESSAGES, type Lead, type LeadUpsertResponse } from "@/lib/schemas/leads";
import {
  columnsOfFields,
  PROPERTY_ADDRESS_FIELD_COLUMNS,
  type RecordFieldValues,
} from "@/lib/domain/records/columns";
import { recordFields, toLocation, type RecordRow } from "@/lib/domain/records/fields";
import type { MatchedOn } from "@/lib/domain/upsert/upsert-record";

/** What the lead rules need of a request: the database and the tenant. */
export type LeadContext = Pick<DomainContext, "db" | "companyId">;
/** Reading a lead list also needs who asks: `assigned_to=me` is the signed-in user. */
export type LeadReadContext = LeadContext & Pick<DomainContext, "principal">;

export type LeadValues = Partial<typeof leads.$inferInsert>;

/**
 * The fields a lead's create-or-update and the import set, by their record names, and the column
 * each is stored in.
 */
const LEAD_FIELD_COLUMNS = {
  name: "name",
  email: "email",
  phone: "phone",
  ...PROPERTY_ADDRESS_FIELD_COLUMNS,
  priority: "priority",
  projected_value: "projectedValue",
  value_score: "valueScore",
  service_type: "serviceType",
  lead_source: "leadSource",
  stage: "stage",
  lost_reason: "lostReason",
  notes: "notes",
  follow_up_date: "followUpDate",
  assigned_to: "assignedTo",
} as const satisfies Record<string, keyof LeadValues>;

export type LeadFields = RecordFieldValues<LeadValues, typeof LEAD_FIELD_COLUMNS>;

/**
 * The columns a lead's fields set: only those present (`absent: "kept"`, an update), or every
 * column with absent ones null (`absent: "null"`, a whole new lead).
 */
export function leadColumns(fields: LeadFields, absent: "kept" | "null"): LeadValues {
  return columnsOfFields<LeadValues, typeof LEAD_FIELD_COLUMNS>(LEAD_FIELD_COLUMNS, fields, absent);
}

/** The columns of a lead's API record. */
const LEAD_KEYS = [
  "id",
  "name",
  "email",
  "phone",
  ...PROPERTY_ADDRESS_KEYS,
  "priority",
  "projectedValue",
  "valueScore",
  "serviceType",
  "leadSource",
  "stage",
  "lostReason",
  "tags",
  "notes",
  "followUpDate",
  "assignedTo",
  "archived",
  "archivedAt",
  "customerId",
  "createdAt",
  "latitude",
  "longitude",
] as const;

/**
 * What the list, get-by-id and create-or-update select of a lead (recordFields): one row shape,
 * mapped to the API record by toLead alone.
 */
export const LEAD_FIELDS = recordFields(leads, LEAD_KEYS);
export type LeadRecordRow = RecordRow<typeof leads, (typeof LEAD_KEYS)[number]>;

/** A stored lead as list and get return it (no address_*, source, status or message). */
export function toLead(row: LeadRecordRow): Lead {
  return {
    id: row.id,
    name: row.name ?? "",
    email: row.email,
    phone: row.phone,
    property_street1: row.property_street1,
    property_street2: row.property_street2,
    property_city: row.property_city,
    property_state: row.property_state,
    property_zip: row.property_zip,
    property_country: row.property_country,
    priority: row.priority,
    projected_value: row.projected_value == null ? null : cents(row.projected_value),
    value_score: row.value_score,
    service_type: row.service_type,
    lead_source: row.lead_source,
    stage: row.stage,
    lost_reason: row.lost_reason,
    tags: row.tags,
    notes: row.notes,
    follow_up_date: iso(row.follow_up_date),
    assigned_to: row.assigned_to,
    archived: row.archived,
    archived_at: iso(row.archived_at),
    customer_id: row.customer_id,
    created_at: iso(row.created_at),
    location: toLocation(row.latitude, row.longitude),
  };
}

/**
 * The flat create-or-update answer: the lead under both name sets, plus status, message and what
 * it matched on (null: created).
 */
export function toLeadUpsertResponse(row: LeadRecordRow, matchedOn: MatchedOn | null): LeadUpsertResponse {
  const lead = toLead(row);
  return {
    ...lead,
    address_street1: lead.property_street1,
    address_street2: lead.property_street2,
    address_city: lead.property_city,
    address_state: lead.property_state,
    address_zip: lead.property_zip,
    address_country: lead.property_country,
    source: lead.lead_source,
    status: "success",
    message: matchedOn === null ? LEAD_MESSAGES.created : LEAD_MESSAGES.updated,
    matched_on: matchedOn,
  };
}

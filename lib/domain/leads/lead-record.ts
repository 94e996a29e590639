import type { RequestContext } from "@/lib/api/handler";
import type { leads } from "@/lib/db/schema";
import { cents, iso } from "@/lib/schemas/common";
import { LEAD_MESSAGES, type Lead, type LeadUpsertResponse } from "@/lib/schemas/leads";
import { toLocation } from "@/lib/domain/record-matching";

/** What the lead rules need of a request: the database and the tenant. */
export type LeadContext = Pick<RequestContext, "db" | "companyId">;

export type LeadRow = typeof leads.$inferSelect;

/** A stored lead as list and get return it (no address_*, source, status or message). */
export function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    name: row.name ?? "",
    email: row.email,
    phone: row.phone,
    property_street1: row.propertyStreet1,
    property_street2: row.propertyStreet2,
    property_city: row.propertyCity,
    property_state: row.propertyState,
    property_zip: row.propertyZip,
    property_country: row.propertyCountry,
    priority: row.priority,
    projected_value: row.projectedValue == null ? null : cents(row.projectedValue),
    value_score: row.valueScore,
    service_type: row.serviceType,
    lead_source: row.leadSource,
    stage: row.stage,
    tags: row.tags,
    notes: row.notes,
    follow_up_date: iso(row.followUpDate),
    assigned_to: row.assignedTo,
    archived: row.archived,
    archived_at: iso(row.archivedAt),
    created_at: iso(row.createdAt),
    location: toLocation(row.latitude, row.longitude),
  };
}

/** The flat create-or-update answer: the lead under both name sets, plus status and message. */
export function toLeadUpsertResponse(row: LeadRow, created: boolean): LeadUpsertResponse {
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
    message: created ? LEAD_MESSAGES.created : LEAD_MESSAGES.updated,
  };
}

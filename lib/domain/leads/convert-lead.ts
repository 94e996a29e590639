import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { customers, leads } from "@/lib/db/schema";
import { actorOf, addActivity } from "@/lib/domain/activity/activity";
import { emitRecordEvents } from "@/lib/domain/webhooks/emit";
import {
  DETAILED_CUSTOMER_FIELDS,
  toCustomerDetail,
  type DetailedCustomerRow,
} from "@/lib/domain/customers/customer-record";
import { customerUpsertSpec } from "@/lib/domain/customers/upsert-customer";
import type { DomainContext } from "@/lib/domain/context";
import { NotFoundError } from "@/lib/domain/errors";
import { normalizeEmail, normalizePhone } from "@/lib/values/normalize";
import { loadPipeline } from "@/lib/domain/pipeline/pipeline";
import {
  dryRunRecord,
  inRolledBackTransaction,
  lockAndMatchIdentity,
  upsertRecordIn,
  type MatchedOn,
} from "@/lib/domain/upsert/upsert-record";
import type { CustomerDetail, UpsertCustomerBody } from "@/lib/schemas/customers";
import {
  CONVERT_MESSAGES,
  splitLeadName,
  type ConvertLeadBody,
  type ConvertLeadDryRunResponse,
  type ConvertLeadResponse,
} from "@/lib/schemas/lead-convert";
import type { Lead } from "@/lib/schemas/leads";
import { DRY_RUN_MESSAGE } from "@/lib/schemas/upsert-fields";
import { LEAD_FIELDS, toLead, type LeadRecordRow } from "./lead-record";

type ConvertContext = Pick<DomainContext, "db" | "companyId" | "principal">;

interface Conversion {
  created: boolean;
  matchedOn: MatchedOn | null;
  /** The linked customer before the conversion (null: a new one). */
  existing: CustomerDetail | null;
  customer: CustomerDetail;
  lead: Lead;
}

/**
 * POST /leads/{id}/convert (extensions.md E4), one transaction: an already converted lead keeps
 * its customer; else a matching customer is linked (unless `match: "none"`) or one is created.
 */
export async function convertLead({
  ctx,
  id,
  input,
}: {
  ctx: ConvertContext;
  id: string;
  input: ConvertLeadBody;
}): Promise<ConvertLeadResponse & { created: boolean }> {
  const { created, matchedOn, customer, lead } = await ctx.db.transaction((tx) =>
    convert(tx, ctx, id, input),
  );
  const message = created
    ? CONVERT_MESSAGES.created
    : matchedOn === "id"
      ? CONVERT_MESSAGES.already
      : CONVERT_MESSAGES.linked;
  return { status: "success", message, matched_on: matchedOn, data: customer, lead, created };
}

/** POST /leads/{id}/convert?dry_run=true: what convertLead would do, nothing written. */
export async function dryRunConvertLead({
  ctx,
  id,
  input,
}: {
  ctx: ConvertContext;
  id: string;
  input: ConvertLeadBody;
}): Promise<ConvertLeadDryRunResponse> {
  return inRolledBackTransaction(ctx.db, async (tx) => {
    const { created, matchedOn, existing, customer } = await convert(tx, ctx, id, input);
    return {
      status: "success",
      message: DRY_RUN_MESSAGE,
      dry_run: true,
      matched_on: matchedOn,
      existing,
      result: dryRunRecord(customer, created),
    };
  });
}

async function convert(
  tx: DbOrTx,
  ctx: ConvertContext,
  id: string,
  input: ConvertLeadBody,
): Promise<Conversion> {
  const [row] = await tx
    .select(LEAD_FIELDS)
    .from(leads)
    .where(and(eq(leads.companyId, ctx.companyId), eq(leads.id, id)))
    .for("update");
  if (!row) throw new NotFoundError("Lead");
  const lead = row as LeadRecordRow;
  if (lead.customer_id) {
    const customer = await customerDetail(tx, ctx.companyId, lead.customer_id);
    return { created: false, matchedOn: "id", existing: customer, customer, lead: toLead(lead) };
  }

  const body = { ...customerOfLead(lead), ...input };
  const match =
    input.match === "none"
      ? undefined
      : await lockAndMatchIdentity(tx, customers, ctx.companyId, {
          phone: normalizePhone(body.phone),
          email: normalizeEmail(body.email),
        });
  let customerId: string;
  let existing: CustomerDetail | null = null;
  if (match) {
    customerId = match.id;
    existing = await customerDetail(tx, ctx.companyId, customerId);
  } else {
    const spec = customerUpsertSpec(ctx, { ...body, match: "none" });
    const { outcome } = await upsertRecordIn<DetailedCustomerRow>(tx, spec, { events: false });
    customerId = outcome.row.id;
  }

  const actor = actorOf(ctx.principal);
  await tx
    .update(customers)
    .set({ leadId: sql`coalesce(${customers.leadId}, ${id})` })
    .where(and(eq(customers.companyId, ctx.companyId), eq(customers.id, customerId)));
  const won = (await loadPipeline(tx, ctx.companyId)).find((stage) => stage.kind === "won");
  const stage = won?.key ?? lead.stage;
  const [updated] = await tx
    .update(leads)
    .set({ customerId, stage, updatedAt: new Date() })
    .where(and(eq(leads.companyId, ctx.companyId), eq(leads.id, id)))
    .returning(LEAD_FIELDS);
  const changes = [
    ...(stage !== lead.stage ? [{ field: "stage", from: lead.stage, to: stage }] : []),
    { field: "customer_id", from: null, to: customerId },
  ];
  await addActivity(tx, ctx.companyId, actor, [
    { recordType: "lead", recordId: id, type: "converted", changes, relatedId: customerId },
    { recordType: "customer", recordId: customerId, type: "converted", relatedId: id },
  ]);
  const convertedLead = toLead(updated as LeadRecordRow);
  const customer = await customerDetail(tx, ctx.companyId, customerId);
  // One event per record, with its final state: a new customer's already holds its lead_id.
  await emitRecordEvents(tx, ctx.companyId, "lead", {
    updated: [id],
    records: new Map([[id, convertedLead]]),
  });
  const customerRecords = new Map([[customerId, customer]]);
  if (!match)
    await emitRecordEvents(tx, ctx.companyId, "customer", {
      created: [customerId],
      records: customerRecords,
    });
  else if (!existing?.lead_id)
    await emitRecordEvents(tx, ctx.companyId, "customer", {
      updated: [customerId],
      records: customerRecords,
    });
  return { created: !match, matchedOn: match?.on ?? null, existing, customer, lead: convertedLead };
}

/** A customer as GET answers it, read in the transaction. */
async function customerDetail(tx: DbOrTx, companyId: string, id: string): Promise<CustomerDetail> {
  const [row] = await tx
    .select(DETAILED_CUSTOMER_FIELDS)
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, id)));
  if (!row) throw new NotFoundError("Customer");
  return toCustomerDetail(row as DetailedCustomerRow);
}

/**
 * What a lead carries over to its customer: the name split (splitLeadName), the property address,
 * phone, email, tags, notes, source and the service the lead wants (the customer's service_type).
 */
export function customerOfLead(lead: LeadRecordRow): UpsertCustomerBody {
  const { first_name, last_name } = splitLeadName(lead.name);
  return {
    first_name: first_name || null,
    last_name: last_name || null,
    email: lead.email,
    phone: lead.phone,
    property_street1: lead.property_street1,
    property_street2: lead.property_street2,
    property_city: lead.property_city,
    property_state: lead.property_state,
    property_zip: lead.property_zip,
    property_country: lead.property_country,
    tags: lead.tags,
    notes: lead.notes,
    source: lead.lead_source,
    service_type: lead.service_type,
  };
}

import "server-only";
import { NotFoundError } from "@/lib/domain/errors";
import { leads } from "@/lib/db/schema";
import { recordById } from "@/lib/domain/records/by-id";
import type { Lead, LeadIdParams } from "@/lib/schemas/leads";
import { LEAD_FIELDS, toLead, type LeadContext, type LeadRecordRow } from "./lead-record";

const leadById = recordById<LeadRecordRow>(leads, LEAD_FIELDS, "fcrm_lead_by_id_v4");

/** GET /leads/{id}: one lead of the company; another company's id is "Lead not found". */
export async function getLeadOrThrow({
  ctx,
  input,
}: {
  ctx: LeadContext;
  input: LeadIdParams;
}): Promise<Lead> {
  const row = await leadById(ctx.db, ctx.companyId, input.id);
  if (!row) throw new NotFoundError("Lead");
  return toLead(row);
}

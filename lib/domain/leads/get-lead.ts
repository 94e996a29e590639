import { NotFoundError } from "@/lib/domain/errors";
import { storedRecordById } from "@/lib/domain/record-matching";
import type { Lead, LeadIdParams } from "@/lib/schemas/leads";
import { LISTED_LEAD, toLead, type LeadContext } from "./lead-record";

const leadById = storedRecordById(LISTED_LEAD, "fcrm_lead_by_id_v2");

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

import { and, eq } from "drizzle-orm";
import { leads } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/domain/errors";
import type { Lead, LeadIdParams } from "@/lib/schemas/leads";
import { toLead, type LeadContext } from "./lead-record";

/** GET /leads/{id}: one lead of the company; another company's id is "Lead not found". */
export async function getLeadOrThrow({
  ctx,
  input,
}: {
  ctx: LeadContext;
  input: LeadIdParams;
}): Promise<Lead> {
  const [row] = await ctx.db
    .select()
    .from(leads)
    .where(and(eq(leads.companyId, ctx.companyId), eq(leads.id, input.id)))
    .limit(1);
  if (!row) throw new NotFoundError("Lead");
  return toLead(row);
}

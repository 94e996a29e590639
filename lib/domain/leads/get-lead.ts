import { and, eq, sql } from "drizzle-orm";
import { preparedPerDatabase } from "@/lib/db/client";
import { leads } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/domain/errors";
import type { Lead, LeadIdParams } from "@/lib/schemas/leads";
import { LISTED_LEAD, toLead, type LeadContext } from "./lead-record";

const byId = preparedPerDatabase((db) =>
  db
    .select()
    .from(leads)
    .where(and(eq(leads.companyId, sql.placeholder("companyId")), eq(leads.id, sql.placeholder("id"))))
    .limit(1)
    .prepare("fcrm_lead_by_id_v1"),
);

/** GET /leads/{id}: one lead of the company; another company's id is "Lead not found". */
export async function getLeadOrThrow({
  ctx,
  input,
}: {
  ctx: LeadContext;
  input: LeadIdParams;
}): Promise<Lead> {
  const [row] = await byId(ctx.db).execute({ companyId: ctx.companyId, id: input.id });
  if (!row) throw new NotFoundError("Lead");
  return toLead(LISTED_LEAD.of(row));
}

import { sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import type { ListPinTypesResponse, PinType } from "@/lib/schemas/pin-types";

/**
 * GET /pin-types: every pin type of the company by label, id descending between equal labels.
 * Labels compare byte-wise ("C") so that the order is the same on every server, whatever its locale.
 */
export async function listPinTypes({
  ctx,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input?: undefined;
}): Promise<ListPinTypesResponse> {
  const rows = (
    await ctx.db.execute<PinType & Record<string, unknown>>(sql`select t.id, t.color, t.label from pin_types t
      where t.company_id = ${ctx.companyId}
      order by t.label collate "C" asc, t.id desc`)
  ).rows;
  return { status: "success", data: rows.map((r) => ({ id: r.id, color: r.color, label: r.label })) };
}

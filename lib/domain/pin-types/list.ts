import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import type { DomainContext } from "@/lib/domain/context";
import type { ListPinTypesResponse, PinTypeRecord } from "@/lib/schemas/pin-types";

type PinTypeRow = PinTypeRecord & Record<string, unknown>;

const toPinType = (r: PinTypeRow): PinTypeRecord => ({
  id: r.id,
  color: r.color,
  label: r.label,
  position: Number(r.position),
});

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
    await ctx.db.execute<PinTypeRow>(sql`select t.id, t.color, t.label, t.position from pin_types t
      where t.company_id = ${ctx.companyId}
      order by t.label collate "C" asc, t.id desc`)
  ).rows;
  return { status: "success", data: rows.map(toPinType) };
}

/** The company's pin types in the settings' order (position, then label and id as GET /pin-types). */
export async function loadPinTypesInOrder(db: DbOrTx, companyId: string): Promise<PinTypeRecord[]> {
  const rows = (
    await db.execute<PinTypeRow>(sql`select t.id, t.color, t.label, t.position from pin_types t
      where t.company_id = ${companyId}
      order by t.position, t.label collate "C" asc, t.id desc`)
  ).rows;
  return rows.map(toPinType);
}

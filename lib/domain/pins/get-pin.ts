import "server-only";
import { sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { NotFoundError } from "@/lib/domain/errors";
import { isoUtc } from "@/lib/domain/reports/sql";
import type { GetPinResponse, PinIdParams, PinVisit } from "@/lib/schemas/pins";
import { selectPin } from "./upsert-pin";

interface VisitRow extends Record<string, unknown> {
  at: string;
  user_id: string;
  user_email: string | null;
  user_name: string | null;
  pin_type_id: string;
  pin_type_color: string;
  pin_type_label: string;
}

/** GET /pins/{id} (extensions.md E5): the pin and its visits, newest first (pin_visits_pin_idx). */
export async function getPin({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: PinIdParams;
}): Promise<GetPinResponse> {
  const [pin, visits] = await Promise.all([
    selectPin(ctx.db, ctx.companyId, input.id),
    ctx.db.execute<VisitRow>(sql`select ${isoUtc(sql`v.at`)} as at, v.user_id, u.email as user_email,
        u.name as user_name, t.id as pin_type_id, t.color as pin_type_color, t.label as pin_type_label
      from pin_visits v
      join pin_types t on t.company_id = v.company_id and t.id = v.pin_type_id
      left join users u on u.company_id = v.company_id and u.id = v.user_id
      where v.company_id = ${ctx.companyId} and v.pin_id = ${input.id}
      order by v.at desc, v.id desc`),
  ]);
  if (!pin) throw new NotFoundError("Pin");
  return { status: "success", data: { ...pin, visits: visits.rows.map(toVisit) } };
}

function toVisit(row: VisitRow): PinVisit {
  return {
    at: row.at,
    by: { email: row.user_email ?? "", name: row.user_name ?? "", user_id: row.user_id },
    pin_type: { id: row.pin_type_id, color: row.pin_type_color, label: row.pin_type_label },
  };
}

import { sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { pageOffset, paginationOf } from "@/lib/schemas/common";
import type { GetPinsQuery, ListPinsResponse, Pin } from "@/lib/schemas/pins";
import { listCountTotal } from "@/lib/domain/list-counts";
import { pageAndTotal, totalColumn, type ListTotal } from "@/lib/domain/list-page";
import { allOf, isoUtc, newestFirst, toNumber } from "@/lib/domain/reports/sql";

interface PinRow extends Record<string, unknown> {
  id: string;
  created_at: string;
  latitude: number;
  longitude: number;
  user_id: string;
  user_email: string | null;
  user_name: string | null;
  pin_type_id: string;
  pin_type_color: string;
  pin_type_label: string;
}

function toPin(row: PinRow): Pin {
  return {
    id: row.id,
    created_at: row.created_at,
    created_by: { email: row.user_email ?? "", name: row.user_name ?? "", user_id: row.user_id },
    location: [toNumber(row.latitude), toNumber(row.longitude)],
    pin_type: { id: row.pin_type_id, color: row.pin_type_color, label: row.pin_type_label },
  };
}

/**
 * GET /pins: a page of the company's pins, newest first, optionally of one type or creator, with
 * the exact total. Without a creator the total is read from the kept counters by pin type
 * (lib/domain/list-counts.ts), by the page's own statement (lib/domain/list-page.ts). A creator's
 * pins are counted through their index beside the page (types × creators would make too many
 * counter rows).
 */
export async function listPins({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: GetPinsQuery;
}): Promise<ListPinsResponse> {
  const { limit } = input;
  const where = allOf([
    sql`p.company_id = ${ctx.companyId}`,
    input.pin_type_id !== undefined && sql`p.pin_type_id = ${input.pin_type_id}`,
    input.user_id !== undefined && sql`p.created_by = ${input.user_id}`,
  ]);
  const total: ListTotal =
    input.user_id === undefined
      ? {
          kept: listCountTotal(ctx.db, { companyId: ctx.companyId, entity: "pins", key1: input.pin_type_id }),
        }
      : {
          counted: ctx.db
            .execute<{ total: number }>(sql`select count(*)::int as total from pins p where ${where}`)
            .then((result) => result.rows),
        };
  // The page is cut from the pins index first; its type and creator are joined to those rows only.
  const { rows, total: matching } = await pageAndTotal(
    ctx.db
      .execute<PinRow>(
        sql`select page.id, ${isoUtc(sql`page.created_at`)} as created_at, page.latitude, page.longitude,
        page.created_by as user_id, u.email as user_email, u.name as user_name,
        t.id as pin_type_id, t.color as pin_type_color, t.label as pin_type_label ${totalColumn(total)}
      from (
        select p.company_id, p.id, p.created_at, p.latitude, p.longitude, p.created_by, p.pin_type_id
        from pins p
        where ${where}
        order by ${newestFirst("p")}
        limit ${limit} offset ${pageOffset(input)}
      ) page
      join pin_types t on t.company_id = page.company_id and t.id = page.pin_type_id
      left join users u on u.company_id = page.company_id and u.id = page.created_by
      order by ${newestFirst("page")}`,
      )
      .then((result) => result.rows),
    total,
  );
  return {
    status: "success",
    data: rows.map(toPin),
    pagination: paginationOf(input, matching),
  };
}

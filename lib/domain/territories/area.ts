import { sql, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { NotFoundError } from "@/lib/domain/errors";

/**
 * The `territory_id` filter of GET /pins and GET /leads (extensions.md E6): the territory's ring
 * is read first (an unknown id is a 404), then the list tests each row's point against it as a
 * constant, which the lists' GiST indexes on `(company_id, point(longitude, latitude))` serve.
 */
export async function territoryArea(
  ctx: Pick<DomainContext, "db" | "companyId">,
  territoryId: string,
): Promise<string> {
  const { rows } = await ctx.db.execute<{ area: string }>(
    sql`select area::text as area from territories where company_id = ${ctx.companyId} and id = ${territoryId}`,
  );
  const area = rows[0]?.area;
  if (area === undefined) throw new NotFoundError("Territory");
  return area;
}

/** `alias.longitude/latitude` inside `area`, in the form the GiST indexes serve. */
export function insideArea(alias: string, area: string): SQL {
  const a = sql.raw(alias);
  return sql`point(${a}.longitude, ${a}.latitude) <@ ${area}::polygon`;
}

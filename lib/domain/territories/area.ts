import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { NotFoundError } from "@/lib/domain/errors";

/**
 * The `territory_id` filter (extensions.md E6): the ring is read once (unknown: 404) and tested
 * as a constant, which the lists' GiST point indexes serve.
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

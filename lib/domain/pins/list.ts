import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { pageOf, pageOffset, paginationOf } from "@/lib/schemas/common";
import type { BoundingBox, GetPinsQuery, ListPinsResponse } from "@/lib/schemas/pins";
import { listCountTotal } from "@/lib/domain/list-counts";
import { pageAndTotal, totalColumn, type ListTotal } from "@/lib/domain/list-page";
import { allOf, newestFirst } from "@/lib/domain/reports/sql";
import {
  isWalk,
  walkCondition,
  walkOf,
  walkOrder,
  walkPage,
  walkReadLimit,
  walkSelectList,
  type FeedColumns,
  type WalkRow,
} from "@/lib/domain/lists/change-feed";
import { insideArea, territoryArea } from "@/lib/domain/territories/area";
import { pinColumns, pinJoins, toPin, type PinRow } from "./pin-record";

/**
 * GET /pins: newest first with the exact total, from the counters when filtered by pin type alone
 * (types × creators would be too many rows). Place filters use `<@` so the GiST index serves them.
 * With `updated_since` or `cursor`, a walk of the changes instead (walkPins).
 */
export async function listPins({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: GetPinsQuery;
}): Promise<ListPinsResponse> {
  if (isWalk(input)) return walkPins(ctx, input);
  const { limit } = input;
  const { where, counted } = await pinListWhere(ctx, input);
  const total: ListTotal = counted
    ? {
        counted: ctx.db
          .execute<{ total: number }>(sql`select count(*)::int as total from pins p where ${where}`)
          .then((result) => result.rows),
      }
    : { kept: listCountTotal(ctx.db, { companyId: ctx.companyId, entity: "pins", key1: input.pin_type_id }) };
  // The page is cut from the pins first; its type and creator are joined to those rows only.
  const { rows, total: matching } = await pageAndTotal(
    ctx.db
      .execute<PinRow>(
        sql`select ${pinColumns("page")} ${totalColumn(total)}
      from (
        select p.* from pins p
        where ${where}
        order by ${newestFirst("p")}
        limit ${limit} offset ${pageOffset(pageOf(input))}
      ) page
      ${pinJoins("page")}
      order by ${newestFirst("page")}`,
      )
      .then((result) => result.rows),
    total,
  );
  return {
    status: "success",
    data: rows.map(toPin),
    pagination: paginationOf(pageOf(input), matching),
  };
}

const PIN_FEED: FeedColumns = {
  id: sql.raw("p.id"),
  changeXid: sql.raw("p.change_xid"),
  changeSeq: sql.raw("p.change_seq"),
  updatedAt: sql.raw("p.updated_at"),
};

/**
 * A page of the change feed (extensions.md E10): the pins' changes in order, the other filters
 * applied (change-feed.ts). `updated_since` starts the walk rather than filtering the page.
 */
async function walkPins(
  ctx: Pick<DomainContext, "db" | "companyId">,
  input: GetPinsQuery,
): Promise<ListPinsResponse> {
  const walk = walkOf("pins", input, input);
  const { where } = await pinListWhere(ctx, { ...input, updated_since: undefined });
  const feed = sql.raw("page");
  const rows = await ctx.db
    .execute<PinRow & { feed_xid: string; feed_seq: string; feed_horizon: string }>(
      sql`select ${pinColumns("page")}, page.feed_xid, page.feed_seq, page.feed_horizon
      from (
        select p.*, ${walkSelectList(PIN_FEED)} from pins p
        where ${where} and ${walkCondition(PIN_FEED, walk)}
        order by ${sql.join(walkOrder(PIN_FEED), sql`, `)}
        limit ${walkReadLimit(input.limit)}
      ) page
      ${pinJoins("page")}
      order by ${sql.join(
        walkOrder({
          id: sql`${feed}.id`,
          changeXid: sql`${feed}.change_xid`,
          changeSeq: sql`${feed}.change_seq`,
          updatedAt: sql`${feed}.updated_at`,
        }),
        sql`, `,
      )}`,
    )
    .then((result) => result.rows);
  const page = walkPage(
    rows.map((row): PinRow & WalkRow => ({
      ...row,
      feedXid: row.feed_xid,
      feedSeq: row.feed_seq,
      feedHorizon: row.feed_horizon,
    })),
    walk,
    input.limit,
  );
  return { status: "success", data: page.rows.map(toPin), pagination: page.pagination };
}

/**
 * The conditions of a pin list (alias `p`), and whether its total must be counted: any filter
 * other than the pin type's. An unknown territory is a 404.
 */
export async function pinListWhere(
  ctx: Pick<DomainContext, "db" | "companyId">,
  input: Omit<GetPinsQuery, "page" | "limit" | "cursor">,
): Promise<{ where: SQL; counted: boolean }> {
  const area = input.territory_id === undefined ? undefined : await territoryArea(ctx, input.territory_id);
  const uncounted = [input.user_id, input.created_by, input.lead_id, area, input.bbox];
  const where = allOf([
    sql`p.company_id = ${ctx.companyId}`,
    input.pin_type_id !== undefined && sql`p.pin_type_id = ${input.pin_type_id}`,
    input.user_id !== undefined && sql`p.created_by = ${input.user_id}`,
    input.created_by !== undefined && sql`p.created_by = ${input.created_by}`,
    input.lead_id !== undefined && sql`p.lead_id = ${input.lead_id}`,
    area !== undefined && insideArea("p", area),
    input.bbox !== undefined && insideBox("p", input.bbox),
  ]);
  return { where, counted: uncounted.some((filter) => filter !== undefined) };
}

/**
 * Pins of `alias` inside the box, edges included. A west greater than east crosses the
 * antimeridian: the two boxes on either side of it.
 */
export function insideBox(alias: string, { south, west, north, east }: BoundingBox): SQL {
  const point = sql.raw(`point(${alias}.longitude, ${alias}.latitude)`);
  const box = (w: number, e: number) =>
    sql`${point} <@ box(point(${w}::float8, ${south}::float8), point(${e}::float8, ${north}::float8))`;
  return west <= east ? box(west, east) : sql`(${box(west, 180)} or ${box(-180, east)})`;
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import type { GeoJsonPolygon } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { changesBetween, recordAudit, recordAuditIfChanged } from "@/lib/domain/audit/audit";
import { resolveOwnerFilter } from "@/lib/domain/leads/owners";
import { textArray } from "@/lib/domain/lists/sql-fragments";
import { uniqueTags } from "@/lib/values/normalize";
import { ID_PREFIX, newId } from "@/lib/ids";
import {
  TERRITORY_DEFAULT_COLOR,
  type GetTerritoriesQuery,
  type ListTerritoriesResponse,
  type Territory,
  type UpsertTerritoryBody,
  type UpsertTerritoryResponse,
} from "@/lib/schemas/territories";
import { polygonText } from "./polygon";
import type { Position } from "@/lib/values/polygon";

type Ctx = Pick<DomainContext, "db" | "companyId" | "principal" | "ip">;

/** A territory as the audit log keeps it. */
const audited = (t: Territory | undefined) =>
  t
    ? {
        name: t.name,
        color: t.color,
        polygon: t.polygon.coordinates as Position[][],
        assigned_to: t.assigned_to,
      }
    : null;
const AUDITED_FIELDS = ["name", "color", "polygon", "assigned_to"] as const;

interface TerritoryRow extends Record<string, unknown> {
  id: string;
  name: string;
  color: string;
  polygon: GeoJsonPolygon | string;
  assigned_to: string[] | null;
}

/** The territories of the company (or one of them), each with its assignees' ids. */
async function territoryRows(db: DbOrTx, companyId: string, where: SQL) {
  const { rows } = await db.execute<TerritoryRow>(sql`
    select t.id, t.name, t.color, t.polygon,
      coalesce((select array_agg(a.user_id order by a.user_id) from territory_assignees a
        where a.company_id = t.company_id and a.territory_id = t.id), '{}') as assigned_to
    from territories t
    where t.company_id = ${companyId} and ${where}
    order by t.name, t.id`);
  return rows.map(toTerritory);
}

function toTerritory(row: TerritoryRow): Territory {
  const polygon = typeof row.polygon === "string" ? (JSON.parse(row.polygon) as GeoJsonPolygon) : row.polygon;
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    polygon: { type: "Polygon", coordinates: polygon.coordinates },
    assigned_to: row.assigned_to ?? [],
  };
}

/**
 * GET /territories: the company's territories by name; `assigned_to` keeps those a user is
 * assigned to (`me`: the signed-in user).
 */
export async function listTerritories({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId" | "principal">;
  input: GetTerritoriesQuery;
}): Promise<ListTerritoriesResponse> {
  const userId = resolveOwnerFilter(ctx.principal, input.assigned_to);
  const where = userId
    ? sql`exists (select 1 from territory_assignees a
        where a.company_id = t.company_id and a.territory_id = t.id and a.user_id = ${userId})`
    : sql`true`;
  return { status: "success", data: await territoryRows(ctx.db, ctx.companyId, where) };
}

/**
 * POST /territories: create, or update by `id`. The ring is stored as GeoJSON for the API and as a
 * native polygon for the filters; assignees are replaced in the same transaction.
 */
export async function upsertTerritory({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: UpsertTerritoryBody;
}): Promise<{ created: boolean; response: UpsertTerritoryResponse }> {
  if (input.id === undefined) {
    const missing = (["name", "polygon"] as const).filter((field) => input[field] === undefined);
    if (missing.length > 0) {
      throw new ValidationError(
        missing.map((field) => ({ field, message: "is required to create a territory" })),
      );
    }
  }
  const assignees = input.assigned_to ? uniqueTags(input.assigned_to) : undefined;
  return ctx.db.transaction(async (tx) => {
    if (assignees) await checkAssignees(tx, ctx.companyId, assignees);
    const id = input.id ?? newId(ID_PREFIX.territory);
    const polygon = input.polygon;
    const area = polygon ? polygonText((polygon.coordinates[0] as Position[]).slice(0, -1)) : undefined;
    if (input.id !== undefined) {
      // The row, locked, before the change: the audit entry's "from", not another request's.
      const { rows } = await tx.execute(
        sql`select id from territories where company_id = ${ctx.companyId} and id = ${id} for update`,
      );
      if (rows.length === 0) throw new NotFoundError("Territory");
    }
    const [before] = input.id === undefined ? [] : await territoryRows(tx, ctx.companyId, sql`t.id = ${id}`);
    if (input.id === undefined) {
      await tx.execute(sql`insert into territories (company_id, id, name, color, polygon, area)
        values (${ctx.companyId}, ${id}, ${input.name!}, ${input.color ?? TERRITORY_DEFAULT_COLOR},
          ${JSON.stringify(polygon)}::jsonb, ${area!}::polygon)`);
    } else {
      const sets = [
        input.name !== undefined && sql`name = ${input.name}`,
        input.color !== undefined && sql`color = ${input.color}`,
        polygon && sql`polygon = ${JSON.stringify(polygon)}::jsonb, area = ${area!}::polygon`,
        sql`updated_at = now()`,
      ].filter((set) => set !== false && set !== undefined);
      const { rows } = await tx.execute<{ id: string }>(sql`update territories set ${sql.join(sets, sql`, `)}
        where company_id = ${ctx.companyId} and id = ${id} returning id`);
      if (rows.length === 0) throw new NotFoundError("Territory");
    }
    if (assignees) {
      await tx.execute(
        sql`delete from territory_assignees where company_id = ${ctx.companyId} and territory_id = ${id}`,
      );
      if (assignees.length > 0) {
        await tx.execute(sql`insert into territory_assignees (company_id, territory_id, user_id)
          select ${ctx.companyId}, ${id}, u from unnest(${textArray(assignees)}) as u`);
      }
    }
    const [territory] = await territoryRows(tx, ctx.companyId, sql`t.id = ${id}`);
    const created = input.id === undefined;
    await recordAuditIfChanged(tx, ctx, {
      kind: created ? "territory.created" : "territory.updated",
      target: { type: "territory", id },
      changes: changesBetween(audited(before), audited(territory), AUDITED_FIELDS),
    });
    return {
      created,
      response: {
        status: "success" as const,
        message: created ? ("Territory created" as const) : ("Territory updated" as const),
        data: territory!,
      },
    };
  });
}

/** 400 naming `assigned_to` when an id is no user of the company (another company's neither). */
async function checkAssignees(tx: DbOrTx, companyId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return;
  const { rows } = await tx.execute<{
    id: string;
  }>(sql`select u.id from unnest(${textArray(userIds)}) as u(id)
    where not exists (select 1 from users where users.company_id = ${companyId} and users.id = u.id)`);
  if (rows.length === 0) return;
  throw new ValidationError([
    {
      field: "assigned_to",
      message: `must be user ids of the company; unknown: ${rows.map((row) => row.id).join(", ")}`,
    },
  ]);
}

/** DELETE /territories/{id}: the territory and its assignments. */
export async function deleteTerritory({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [before] = await territoryRows(tx, ctx.companyId, sql`t.id = ${input.id}`);
    const { rows } = await tx.execute<{ id: string }>(
      sql`delete from territories where company_id = ${ctx.companyId} and id = ${input.id} returning id`,
    );
    if (rows.length === 0) throw new NotFoundError("Territory");
    await recordAudit(tx, ctx, {
      kind: "territory.deleted",
      target: { type: "territory", id: input.id },
      changes: changesBetween(audited(before), null, AUDITED_FIELDS),
    });
  });
}

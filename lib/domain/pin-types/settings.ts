import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { listCounts, pinTypes, pinVisits } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { adminSettingsChange } from "@/lib/domain/settings-change";
import { changesBetween, recordAuditIfChanged } from "@/lib/domain/audit/audit";
import { PinTypeInUseError, ValidationError, type FieldProblem } from "@/lib/domain/errors";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { PinTypeRecord, PinTypeSettingsResponse, PutPinTypesBody } from "@/lib/schemas/pin-types";
import { loadPinTypesInOrder } from "./list";

/** GET /settings/pin-types: the types in the order admins set. */
export async function getPinTypeSettings({
  ctx,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
}): Promise<PinTypeSettingsResponse> {
  return { status: "success", data: await loadPinTypesInOrder(ctx.db, ctx.companyId) };
}

/**
 * PUT /settings/pin-types: replaces the pin types whole, under a lock on the company row so two
 * saves serialize. Given ids keep their type; removing a type in use refuses all (409).
 */
export async function replacePinTypes({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: PutPinTypesBody;
}): Promise<PinTypeSettingsResponse> {
  return adminSettingsChange(ctx, "pin_types:manage", async (tx) => {
    const current = await loadPinTypesInOrder(tx, ctx.companyId);
    checkPinTypes(input.pin_types, current);
    const next: PinTypeRecord[] = input.pin_types.map(({ id, label, color }, position) => ({
      id: id ?? newId(ID_PREFIX.pinType),
      label,
      color,
      position,
    }));
    const kept = new Set(next.map((t) => t.id));
    const removed = current.filter((t) => !kept.has(t.id));
    if (removed.length > 0) {
      await refuseRemovingUsedTypes(tx, ctx.companyId, removed);
      await tx.delete(pinTypes).where(
        and(
          eq(pinTypes.companyId, ctx.companyId),
          inArray(
            pinTypes.id,
            removed.map((t) => t.id),
          ),
        ),
      );
    }
    await tx
      .insert(pinTypes)
      .values(next.map((t) => ({ ...t, companyId: ctx.companyId })))
      .onConflictDoUpdate({
        target: [pinTypes.companyId, pinTypes.id],
        set: { label: sql`excluded.label`, color: sql`excluded.color`, position: sql`excluded.position` },
      });
    await recordAuditIfChanged(tx, ctx, {
      kind: "pin_types.changed",
      target: { type: "pin_types", id: null },
      changes: changesBetween({ pin_types: current.map(summary) }, { pin_types: next.map(summary) }, [
        "pin_types",
      ]),
    });
    return { status: "success", data: next };
  });
}

/** A pin type as the audit log keeps it (its place is its index in the list). */
const summary = ({ id, label, color }: PinTypeRecord) => ({ id, label, color });

/** Labels unique ignoring case; each id one of the company's types, given once. */
function checkPinTypes(types: PutPinTypesBody["pin_types"], current: readonly PinTypeRecord[]): void {
  const problems: FieldProblem[] = [];
  const known = new Set(current.map((t) => t.id));
  const fold = (text: string) => text.toLowerCase();
  types.forEach((type, i) => {
    const earlier = types.slice(0, i);
    if (type.id !== undefined && !known.has(type.id)) {
      problems.push({ field: `pin_types.${i}.id`, message: "is not a pin type of the company" });
    } else if (type.id !== undefined && earlier.some((t) => t.id === type.id)) {
      problems.push({ field: `pin_types.${i}.id`, message: "is given twice" });
    }
    if (earlier.some((t) => fold(t.label) === fold(type.label))) {
      problems.push({
        field: `pin_types.${i}.label`,
        message: `another pin type is already named "${type.label}"`,
      });
    }
  });
  if (problems.length > 0) throw new ValidationError(problems);
}

/**
 * 409 naming every removed type that pins or visits still use. The pins per type come from the
 * kept counters (list_counts, entity 'pins'); the visits are counted.
 */
async function refuseRemovingUsedTypes(
  tx: DbOrTx,
  companyId: string,
  removed: readonly PinTypeRecord[],
): Promise<void> {
  const ids = removed.map((t) => t.id);
  const [pinRows, visitRows] = [
    await tx
      .select({ id: listCounts.key1, count: sql<number>`sum(${listCounts.n})::int` })
      .from(listCounts)
      .where(
        and(
          eq(listCounts.companyId, companyId),
          eq(listCounts.entity, "pins"),
          inArray(listCounts.key1, ids),
        ),
      )
      .groupBy(listCounts.key1),
    await tx
      .select({ id: pinVisits.pinTypeId, count: sql<number>`count(*)::int` })
      .from(pinVisits)
      .where(and(eq(pinVisits.companyId, companyId), inArray(pinVisits.pinTypeId, ids)))
      .groupBy(pinVisits.pinTypeId),
  ];
  const countOf = (rows: { id: string | null; count: number }[], id: string) =>
    Number(rows.find((row) => row.id === id)?.count ?? 0);
  const used = removed.flatMap((type) => {
    const [pins, visits] = [countOf(pinRows, type.id), countOf(visitRows, type.id)];
    return pins > 0 || visits > 0 ? [{ type, pins, visits }] : [];
  });
  if (used.length > 0) throw new PinTypeInUseError(used);
}

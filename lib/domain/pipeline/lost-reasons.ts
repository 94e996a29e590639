import "server-only";
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { lostReasons } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { ValidationError, type FieldProblem } from "@/lib/domain/errors";
import { adminSettingsChange } from "@/lib/domain/settings-change";
import { changesBetween, recordAuditIfChanged } from "@/lib/domain/audit/audit";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { LostReason, LostReasonsResponse, PutLostReasonsBody } from "@/lib/schemas/lost-reasons";

/** The company's lost reasons in the admin's order (none until an admin or the seed adds some). */
export async function loadLostReasons(db: DbOrTx, companyId: string): Promise<LostReason[]> {
  return db
    .select({ id: lostReasons.id, label: lostReasons.label })
    .from(lostReasons)
    .where(eq(lostReasons.companyId, companyId))
    .orderBy(asc(lostReasons.position), asc(lostReasons.id));
}

/** GET /lost-reasons and GET /settings/lost-reasons. */
export async function getLostReasons({
  ctx,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
}): Promise<LostReasonsResponse> {
  return { status: "success", data: await loadLostReasons(ctx.db, ctx.companyId) };
}

/**
 * PUT /settings/lost-reasons: replaces the list whole, as the pipeline is replaced. Leads keep the
 * label they were lost for, so removing a reason is always allowed.
 */
export async function replaceLostReasons({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: PutLostReasonsBody;
}): Promise<LostReasonsResponse> {
  return adminSettingsChange(ctx, "pipeline:manage", async (tx) => {
    const before = await loadLostReasons(tx, ctx.companyId);
    const current = new Set(before.map((r) => r.id));
    checkReasons(input.reasons, current);
    const next = input.reasons.map(({ id, label }) => ({ id: id ?? newId(ID_PREFIX.lostReason), label }));
    await tx.delete(lostReasons).where(eq(lostReasons.companyId, ctx.companyId));
    if (next.length > 0) {
      await tx
        .insert(lostReasons)
        .values(next.map((reason, position) => ({ ...reason, companyId: ctx.companyId, position })));
    }
    await recordAuditIfChanged(tx, ctx, {
      kind: "lost_reasons.changed",
      target: { type: "lost_reasons", id: null },
      changes: changesBetween({ reasons: before }, { reasons: next }, ["reasons"]),
    });
    return { status: "success", data: next };
  });
}

/** Labels unique ignoring case; a given id is one of the company's reasons, given once. */
function checkReasons(reasons: PutLostReasonsBody["reasons"], current: ReadonlySet<string>): void {
  const problems: FieldProblem[] = [];
  const fold = (text: string) => text.toLowerCase();
  reasons.forEach((reason, i) => {
    const earlier = reasons.slice(0, i);
    if (earlier.some((r) => fold(r.label) === fold(reason.label))) {
      problems.push({
        field: `reasons.${i}.label`,
        message: `another reason is already named "${reason.label}"`,
      });
    }
    if (reason.id === undefined) return;
    if (!current.has(reason.id)) {
      problems.push({ field: `reasons.${i}.id`, message: `no lost reason has the id "${reason.id}"` });
    } else if (earlier.some((r) => r.id === reason.id)) {
      problems.push({ field: `reasons.${i}.id`, message: `the id "${reason.id}" is given twice` });
    }
  });
  if (problems.length > 0) throw new ValidationError(problems);
}

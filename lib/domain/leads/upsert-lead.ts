import "server-only";
import { leads } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { normalizeEmail, normalizePhone, uniqueTags } from "@/lib/values/normalize";
import {
  dryRunUpsertRecord,
  matchOption,
  upsertRecord,
  type UpsertSpec,
} from "@/lib/domain/upsert/upsert-record";
import { loadPipeline } from "@/lib/domain/pipeline/pipeline";
import { actorOf } from "@/lib/domain/activity/activity";
import type { DomainContext } from "@/lib/domain/context";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { LeadDryRunResponse, LeadUpsertResponse, UpsertLeadBody } from "@/lib/schemas/leads";
import { findStage, storedStage, type Stage } from "@/lib/schemas/pipeline";
import { TAGS_MAX } from "@/lib/schemas/upsert-fields";
import {
  LEAD_FIELDS,
  leadColumns,
  toLead,
  toLeadUpsertResponse,
  type LeadFields,
  type LeadRecordRow,
} from "./lead-record";
import { checkAssignee } from "./owners";

/**
 * POST /leads (contract section 6): upsert by id, phone or email as upsertRecord matches; present
 * fields overwrite, absent ones are kept, null clears, tags merge.
 */
export async function upsertLead({
  ctx,
  input,
}: {
  ctx: LeadWriteContext;
  input: UpsertLeadBody;
}): Promise<{ created: boolean; lead: LeadUpsertResponse }> {
  const { created, matchedOn, row } = await upsertRecord<typeof leads, LeadRecordRow>(
    ctx.db,
    await leadUpsertSpec(ctx, input),
  );
  return { created, lead: toLeadUpsertResponse(row, matchedOn) };
}

/** POST /leads?dry_run=true: what upsertLead would do and answer, with nothing written. */
export async function dryRunUpsertLead({
  ctx,
  input,
}: {
  ctx: LeadWriteContext;
  input: UpsertLeadBody;
}): Promise<LeadDryRunResponse> {
  return dryRunUpsertRecord(ctx.db, await leadUpsertSpec(ctx, input), toLead, toLeadUpsertResponse);
}

/** A lead's writers also need who acts: the activity entry names them. */
export type LeadWriteContext = Pick<DomainContext, "db" | "companyId" | "principal">;

/** The create-or-update of a lead as upsertRecord runs it; refuses a body that cannot create. */
async function leadUpsertSpec(
  ctx: LeadWriteContext,
  input: UpsertLeadBody,
): Promise<UpsertSpec<typeof leads>> {
  const match = matchOption(input);
  const keys = { id: input.id, phone: normalizePhone(input.phone), email: normalizeEmail(input.email) };
  const given = fieldsOfBody(input);
  // A pipeline stage named by its key or label, in any case, is stored as its key (extensions.md E2).
  const fields = given.stage !== undefined ? await withStoredStage(ctx, given) : given;
  const values = leadColumns(fields, "kept");
  // Without an id, phone or email nothing can match: the call creates, and needs one of these.
  if (keys.id === undefined && !keys.phone && !keys.email && !values.name && !input.phone) {
    const message = NEW_LEAD_NEEDS;
    throw new ValidationError(["name", "email", "phone"].map((field) => ({ field, message })));
  }
  // An owner must be a user of the company (extensions.md E2); a dry run checks it as well.
  await checkAssignee(ctx.db, ctx.companyId, input.assigned_to);
  return {
    table: leads,
    fields: LEAD_FIELDS,
    companyId: ctx.companyId,
    keys,
    match,
    update: values,
    create: { ...leadColumns(fields, "null"), id: newId(ID_PREFIX.lead) },
    tags: uniqueTags(input.tags ?? []),
    removeTags: input.remove_tags ?? [],
    maxTags: TAGS_MAX,
    activity: {
      recordType: "lead",
      actor: actorOf(ctx.principal),
      answer: toLead,
      ignore: LEAD_ACTIVITY_IGNORED,
    },
    notFound: () => new NotFoundError("Lead"),
    tooManyTags: (count) =>
      new ValidationError([
        { field: "tags", message: `a lead can have at most ${TAGS_MAX} tags (${count} after merging)` },
      ]),
  };
}

/** Why a body that can neither match nor make a lead is refused. */
export const NEW_LEAD_NEEDS = "a new lead needs a name, an email or a phone";

async function withStoredStage(ctx: LeadWriteContext, given: LeadFields): Promise<LeadFields> {
  return withStageOf(await loadPipeline(ctx.db, ctx.companyId), given);
}

/**
 * The given stage as stored; a move to a stage that is not lost (or a stage cleared) also clears
 * the lost reason, unless the body gives one, so a reopened lead does not keep a stale reason.
 */
export function withStageOf(pipeline: readonly Stage[], given: LeadFields): LeadFields {
  const stage = given.stage ? storedStage(pipeline, given.stage) : given.stage;
  const lost = stage ? findStage(pipeline, stage)?.kind === "lost" : false;
  return { ...given, stage, lost_reason: given.lost_reason !== undefined || lost ? given.lost_reason : null };
}

/** What a lead's update activity leaves out: fields no create-or-update sets. */
export const LEAD_ACTIVITY_IGNORED: ReadonlySet<string> = new Set([
  "id",
  "created_at",
  "archived",
  "archived_at",
]);

/**
 * The lead fields of the body, by their record names: the body names the property address
 * `address_*` and the source `source`; an empty name clears it.
 */
export function fieldsOfBody(input: UpsertLeadBody): LeadFields {
  return {
    name: input.name === undefined ? undefined : input.name || null,
    email: input.email,
    phone: input.phone,
    property_street1: input.address_street1,
    property_street2: input.address_street2,
    property_city: input.address_city,
    property_state: input.address_state,
    property_zip: input.address_zip,
    property_country: input.address_country,
    priority: input.priority,
    projected_value: input.projected_value,
    service_type: input.service_type,
    lead_source: input.source,
    stage: input.stage,
    lost_reason: input.lost_reason,
    notes: input.notes,
    follow_up_date: input.follow_up_date,
    assigned_to: input.assigned_to,
  };
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { can } from "@/lib/auth/permissions";
import type { DbOrTx } from "@/lib/db/client";
import type { DomainContext } from "@/lib/domain/context";
import { NotFoundError, ValidationError, type FieldProblem } from "@/lib/domain/errors";
import { ID_PREFIX, newId } from "@/lib/ids";
import { emitRecordEvents } from "@/lib/domain/webhooks/emit";
import { FieldScopeError, LeadAlreadyLinkedError } from "./errors";
import { PIN_MESSAGES, type Pin, type PinUpsertResponse, type UpsertPinBody } from "@/lib/schemas/pins";
import { pinColumns, pinJoins, toPin, type PinRow } from "./pin-record";

type PinWriteContext = Pick<DomainContext, "db" | "companyId" | "principal">;

/**
 * POST /pins (extensions.md E5): create, or update by `id` (unknown: 404). A create or a changed
 * pin type records a visit in the same statement; an update that changes nothing writes nothing.
 */
export async function upsertPin({
  ctx,
  input,
}: {
  ctx: PinWriteContext;
  input: UpsertPinBody;
}): Promise<{ created: boolean; pin: PinUpsertResponse }> {
  // Linking a lead shows and credits it: a caller who may not read leads may not link one.
  if (input.lead_id !== undefined && !can(ctx.principal, "leads:read")) {
    throw new FieldScopeError("lead_id", "leads:read");
  }
  if (input.id !== undefined) {
    const pin = await updatePin(ctx, input.id, input);
    return { created: false, pin: { ...pin, status: "success", message: PIN_MESSAGES.updated } };
  }
  const { created, pin } = await createPin(ctx, input);
  return { created, pin: { ...pin, status: "success", message: PIN_MESSAGES.created } };
}

/** When the knock happened: the body's visited_at (a queue sent later), else the statement's now(). */
function visitTime(input: UpsertPinBody): SQL {
  return input.visited_at ? sql`${input.visited_at.toISOString()}::timestamptz` : sql`now()`;
}

/** Who knocks: the signed-in user; with an API key, the body's created_by (checked as a reference). */
function knocker(ctx: PinWriteContext, input: UpsertPinBody): string | undefined {
  return ctx.principal.kind === "session" ? ctx.principal.userId : input.created_by;
}

/**
 * A create; a known client_id answers its pin and writes nothing. Racing calls with a new
 * client_id meet at the unique index, where the second waits and inserts nothing.
 */
async function createPin(
  ctx: PinWriteContext,
  input: UpsertPinBody,
): Promise<{ created: boolean; pin: Pin }> {
  const by = knocker(ctx, input);
  const { location, pin_type_id: pinTypeId } = input;
  if (!location || pinTypeId === undefined || by === undefined) {
    const missing: FieldProblem[] = [];
    if (!location) missing.push({ field: "location", message: "is required to create a pin" });
    if (pinTypeId === undefined)
      missing.push({ field: "pin_type_id", message: "is required to create a pin" });
    if (by === undefined) {
      missing.push({ field: "created_by", message: "is required to create a pin with an API key" });
    }
    throw new ValidationError(missing);
  }
  const seen = input.client_id === undefined ? undefined : await pinByClientId(ctx, input.client_id);
  if (seen) return { created: false, pin: seen };
  await checkReferences(ctx.db, ctx.companyId, {
    pin_type_id: pinTypeId,
    lead_id: input.lead_id ?? undefined,
    created_by: ctx.principal.kind === "session" ? undefined : by,
  });
  const [latitude, longitude] = location;
  const address = input.address ?? {};
  const leadId = input.lead_id ?? null;
  const at = visitTime(input);
  const insert = async (db: DbOrTx) =>
    db.execute<PinRow>(sql`with p as (
      insert into pins (company_id, id, pin_type_id, created_by, latitude, longitude, street1, city, state, zip,
        notes, lead_id, client_id, visit_count, last_visit_at, created_at, updated_at)
      values (${ctx.companyId}, ${newId(ID_PREFIX.pin)}, ${pinTypeId}, ${by}, ${latitude}, ${longitude},
        ${address.street1 ?? null}, ${address.city ?? null}, ${address.state ?? null}, ${address.zip ?? null},
        ${input.notes ?? null}, ${leadId}, ${input.client_id ?? null}, 1, ${at}, ${at}, now())
      on conflict (company_id, client_id) where client_id is not null do nothing
      returning *
    ), v as (
      insert into pin_visits (company_id, pin_id, at, user_id, pin_type_id)
      select company_id, id, created_at, created_by, pin_type_id from p
    )
    select ${pinColumns("p")} from p ${pinJoins("p")}`);
  // The pin and its event (outbox) commit together.
  const pin = await ctx.db.transaction(async (tx) => {
    if (leadId !== null) await checkLeadLink(tx, ctx, { pinCreator: by, from: null, to: leadId, actor: by });
    const row = (await insert(tx)).rows[0];
    if (!row) return undefined;
    const record = toPin(row);
    const records = new Map([[record.id, record]]);
    await emitRecordEvents(tx, ctx.companyId, "pin", { created: [record.id], records });
    return record;
  });
  if (pin) return { created: true, pin };
  // Another call with the same client_id created it meanwhile (and has committed).
  const raced = await pinByClientId(ctx, input.client_id!);
  if (!raced) throw new Error("A pin's create inserted nothing and its client_id is unknown");
  return { created: false, pin: raced };
}

async function pinByClientId(ctx: Pick<DomainContext, "db" | "companyId">, clientId: string) {
  const { rows } = await ctx.db.execute<PinRow>(
    sql`select ${pinColumns("p")} from pins p ${pinJoins("p")}
      where p.company_id = ${ctx.companyId} and p.client_id = ${clientId}`,
  );
  return rows[0] ? toPin(rows[0]) : undefined;
}

interface StoredPin extends Record<string, unknown> {
  pin_type_id: string;
  created_by: string;
  latitude: number;
  longitude: number;
  street1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  notes: string | null;
  lead_id: string | null;
}

/**
 * An update with the pin locked: writes the fields that differ; a changed pin type adds a visit
 * by the knocker (for a key, the pin's creator).
 */
async function updatePin(ctx: PinWriteContext, id: string, input: UpsertPinBody): Promise<Pin> {
  return ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<StoredPin>(
      sql`select pin_type_id, created_by, latitude, longitude, street1, city, state, zip, notes, lead_id
        from pins where company_id = ${ctx.companyId} and id = ${id} for update`,
    );
    const stored = rows[0];
    if (!stored) throw new NotFoundError("Pin");
    const by = knocker(ctx, input);
    const visitor = by ?? stored.created_by;
    const changes = changedColumns(stored, input);
    if (changes.has("pin_type_id") && (await isReplayedVisit(tx, ctx.companyId, id, visitor, input))) {
      changes.delete("pin_type_id");
    }
    if (changes.size === 0) return (await selectPin(tx, ctx.companyId, id))!;
    await checkReferences(tx, ctx.companyId, {
      pin_type_id: changes.has("pin_type_id") ? input.pin_type_id : undefined,
      lead_id: changes.has("lead_id") ? (input.lead_id ?? undefined) : undefined,
      created_by: ctx.principal.kind === "session" ? undefined : by,
    });
    if (changes.has("lead_id")) {
      await checkLeadLink(tx, ctx, {
        pinId: id,
        pinCreator: stored.created_by,
        from: stored.lead_id,
        to: input.lead_id ?? null,
        actor: visitor,
      });
    }
    const knocked = changes.has("pin_type_id");
    const at = visitTime(input);
    const corrected = knocked ? await recentVisit(tx, ctx.companyId, id, visitor, at) : undefined;
    const set = [...changes].map(([column, value]) => sql`${sql.identifier(column)} = ${value}`);
    set.push(sql`updated_at = now()`);
    if (knocked && corrected === undefined) {
      set.push(sql`visit_count = p.visit_count + 1`, sql`last_visit_at = greatest(p.last_visit_at, ${at})`);
    }
    const visit = !knocked
      ? sql``
      : corrected !== undefined
        ? sql`, v as (
          update pin_visits pv set pin_type_id = w.pin_type_id from w
          where pv.company_id = w.company_id and pv.id = ${corrected})`
        : sql`, v as (
          insert into pin_visits (company_id, pin_id, at, user_id, pin_type_id)
          select company_id, id, ${at}, ${visitor}, pin_type_id from w)`;
    const updated = await tx.execute<PinRow>(sql`with w as (
        update pins p set ${sql.join(set, sql`, `)}
        where p.company_id = ${ctx.companyId} and p.id = ${id}
        returning p.*
      )${visit}
      select ${pinColumns("w")} from w ${pinJoins("w")}`);
    const pin = toPin(updated.rows[0]!);
    await emitRecordEvents(tx, ctx.companyId, "pin", { updated: [id], records: new Map([[id, pin]]) });
    return pin;
  });
}

/**
 * Within this window of a user's last visit to a pin, their change of its type corrects that visit
 * (a mis-tap fixed) instead of counting another knock: flipping a type back and forth made knocks.
 */
const CORRECTION_WINDOW = sql`interval '10 minutes'`;

/**
 * The id of the user's last visit to the pin when it is within the window before this visit's
 * time (`at`: a queued change compares its own time, not when it arrived), else undefined.
 */
async function recentVisit(
  tx: DbOrTx,
  companyId: string,
  pinId: string,
  userId: string,
  at: SQL,
): Promise<string | undefined> {
  const { rows } = await tx.execute<{ id: string | number; recent: boolean }>(
    sql`select id, at >= ${at} - ${CORRECTION_WINDOW} as recent from pin_visits
      where company_id = ${companyId} and pin_id = ${pinId} and user_id = ${userId}
      order by at desc, id desc limit 1`,
  );
  const last = rows[0];
  return last?.recent ? String(last.id) : undefined;
}

/**
 * A change of pin type sent again after its answer was lost: the visitor's visit at exactly its
 * visited_at with that type is recorded, so the change is not applied twice (nor over a later
 * change by someone else). Without visited_at a retry cannot be told from a new knock.
 */
async function isReplayedVisit(
  tx: DbOrTx,
  companyId: string,
  pinId: string,
  userId: string,
  input: UpsertPinBody,
): Promise<boolean> {
  if (!input.visited_at || input.pin_type_id === undefined) return false;
  const { rows } = await tx.execute(
    sql`select 1 from pin_visits where company_id = ${companyId} and pin_id = ${pinId}
      and user_id = ${userId} and pin_type_id = ${input.pin_type_id}
      and at = ${input.visited_at.toISOString()}::timestamptz limit 1`,
  );
  return rows.length > 0;
}

/**
 * E5's rule for moving a lead between pins: a lead on a user's pin is that user's credit in the
 * knock-to-cash report, so only an admin or a manager may take it off a pin the actor did not
 * create (`from`), or link it (`to`) to a pin of another user than the pins it is on.
 */
async function checkLeadLink(
  tx: DbOrTx,
  ctx: PinWriteContext,
  link: { pinId?: string; pinCreator: string; from: string | null; to: string | null; actor: string },
): Promise<void> {
  if (can(ctx.principal, "pins:relink_lead")) return;
  if (link.from !== null && link.pinCreator !== link.actor) {
    throw new LeadAlreadyLinkedError(
      `The pin's lead ${link.from} is linked to another user's pin: only an admin or a manager may change its lead_id`,
    );
  }
  if (link.to === null) return;
  // Concurrent links of one lead take turns on its row; the pins are read after the wait, so the
  // second sees the first's link.
  await tx.execute(
    sql`select 1 from leads where company_id = ${ctx.companyId} and id = ${link.to} for no key update`,
  );
  const { rows } = await tx.execute<{ created_by: string }>(
    sql`select created_by from pins
      where company_id = ${ctx.companyId} and lead_id = ${link.to} and created_by <> ${link.pinCreator}
        ${link.pinId === undefined ? sql`` : sql`and id <> ${link.pinId}`}
      limit 1`,
  );
  if (rows.length > 0) {
    throw new LeadAlreadyLinkedError(
      `The lead ${link.to} is linked to another user's pin: only an admin or a manager may link it to this pin`,
    );
  }
}

/** The pin `id` as its record, or undefined. */
export async function selectPin(db: DbOrTx, companyId: string, id: string): Promise<Pin | undefined> {
  const { rows } = await db.execute<PinRow>(
    sql`select ${pinColumns("p")} from pins p ${pinJoins("p")} where p.company_id = ${companyId} and p.id = ${id}`,
  );
  return rows[0] ? toPin(rows[0]) : undefined;
}

/** The body's values that differ from the stored pin, by column (present fields only). */
function changedColumns(stored: StoredPin, input: UpsertPinBody): Map<string, string | number | null> {
  const next: [string, string | number | null | undefined][] = [
    ["pin_type_id", input.pin_type_id],
    ["latitude", input.location?.[0]],
    ["longitude", input.location?.[1]],
    ["notes", input.notes],
    ["lead_id", input.lead_id],
  ];
  if (input.address === null) {
    next.push(["street1", null], ["city", null], ["state", null], ["zip", null]);
  } else if (input.address) {
    const a = input.address;
    next.push(["street1", a.street1], ["city", a.city], ["state", a.state], ["zip", a.zip]);
  }
  const changes = new Map<string, string | number | null>();
  for (const [column, value] of next) {
    if (value !== undefined && value !== stored[column]) changes.set(column, value);
  }
  return changes;
}

/**
 * The references of a write, checked in one statement: a pin type, a lead and a user of the
 * company (each undefined: not checked). Any unknown one is a 400 naming its field.
 */
async function checkReferences(
  db: DbOrTx,
  companyId: string,
  refs: { pin_type_id?: string | undefined; lead_id?: string | undefined; created_by?: string | undefined },
): Promise<void> {
  const { pin_type_id, lead_id, created_by } = refs;
  if (pin_type_id === undefined && lead_id === undefined && created_by === undefined) return;
  const exists = (table: string, id: string | undefined): SQL =>
    id === undefined
      ? sql`true`
      : sql`exists (select 1 from ${sql.identifier(table)} where company_id = ${companyId} and id = ${id})`;
  const { rows } = await db.execute<{ pin_type_ok: boolean; lead_ok: boolean; user_ok: boolean }>(
    sql`select ${exists("pin_types", pin_type_id)} as pin_type_ok, ${exists("leads", lead_id)} as lead_ok,
      ${exists("users", created_by)} as user_ok`,
  );
  const found = rows[0]!;
  const problems: FieldProblem[] = [];
  if (!found.pin_type_ok)
    problems.push({ field: "pin_type_id", message: "must be a pin type id of the company" });
  if (!found.lead_ok)
    problems.push({ field: "lead_id", message: "must be a lead id of the company or null" });
  if (!found.user_ok) problems.push({ field: "created_by", message: "must be a user id of the company" });
  if (problems.length > 0) throw new ValidationError(problems);
}

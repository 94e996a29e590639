import { and, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { leads } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { mergeTags, normalizeEmail, normalizePhone } from "@/lib/domain/normalize";
import { lockIdentities, newestFirst } from "@/lib/domain/record-matching";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { LeadUpsertResponse, UpsertLeadBody } from "@/lib/schemas/leads";
import { TAGS_MAX } from "@/lib/schemas/upsert-fields";
import { toLeadUpsertResponse, type LeadContext, type LeadRow } from "./lead-record";

type LeadValues = Partial<typeof leads.$inferInsert>;

/**
 * POST /leads (contract section 6): update the lead with the given id (unknown: 404), else the
 * newest lead whose phone digits match, else the newest whose email matches case-insensitively
 * (archived leads too; they stay archived), else create one. Present fields overwrite, absent
 * ones are kept, null clears; tags are merged. One transaction, serialized per phone and email
 * (see lockIdentities), so concurrent calls for the same new person create one lead.
 */
export async function upsertLead({
  ctx,
  input,
}: {
  ctx: LeadContext;
  input: UpsertLeadBody;
}): Promise<{ created: boolean; lead: LeadUpsertResponse }> {
  const phone = input.phone == null ? null : normalizePhone(input.phone);
  const email = normalizeEmail(input.email);
  return ctx.db.transaction(async (tx) => {
    await lockIdentities(tx, "leads", ctx.companyId, { phone, email });
    const existing = await findLeadToUpdate(tx, ctx.companyId, input, { phone, email });
    const values = valuesFromInput(input);
    if (existing) {
      const tags = mergeTags(existing.tags, input.tags ?? []);
      checkTagCount(tags);
      const [row] = await tx
        .update(leads)
        .set({ ...values, tags, updatedAt: new Date() })
        .where(and(eq(leads.companyId, ctx.companyId), eq(leads.id, existing.id)))
        .returning();
      return { created: false, lead: toLeadUpsertResponse(row as LeadRow, false) };
    }
    if (!values.name && !email && !input.phone) {
      const message = "a new lead needs a name, an email or a phone";
      throw new ValidationError(["name", "email", "phone"].map((field) => ({ field, message })));
    }
    const [row] = await tx
      .insert(leads)
      .values({
        ...values,
        companyId: ctx.companyId,
        id: newId(ID_PREFIX.lead),
        tags: mergeTags([], input.tags ?? []),
      })
      .returning();
    return { created: true, lead: toLeadUpsertResponse(row as LeadRow, true) };
  });
}

/** The lead an upsert updates, locked for the rest of the transaction; undefined: create one. */
async function findLeadToUpdate(
  tx: DbOrTx,
  companyId: string,
  input: UpsertLeadBody,
  keys: { phone: string | null; email: string | null },
): Promise<LeadRow | undefined> {
  const newestWhere = async (condition: SQL) => {
    const [row] = await tx
      .select()
      .from(leads)
      .where(and(eq(leads.companyId, companyId), condition))
      .orderBy(...newestFirst(leads.createdAt, leads.id))
      .limit(1)
      .for("update");
    return row;
  };
  if (input.id !== undefined) {
    const row = await newestWhere(eq(leads.id, input.id));
    if (!row) throw new NotFoundError("Lead");
    return row;
  }
  if (keys.phone) {
    const row = await newestWhere(eq(leads.phoneNormalized, keys.phone));
    if (row) return row;
  }
  if (keys.email) return newestWhere(eq(leads.emailNormalized, keys.email));
  return undefined;
}

/** The columns the body sets: only fields present in it (absent: kept; null: cleared). */
function valuesFromInput(input: UpsertLeadBody): LeadValues {
  const values: LeadValues = {};
  const set = <K extends keyof LeadValues>(key: K, value: LeadValues[K] | undefined) => {
    if (value !== undefined) values[key] = value;
  };
  set("name", input.name === undefined ? undefined : input.name || null);
  if (input.email !== undefined) {
    values.email = input.email;
    values.emailNormalized = normalizeEmail(input.email);
  }
  if (input.phone !== undefined) {
    values.phone = input.phone;
    values.phoneNormalized = normalizePhone(input.phone);
  }
  set("propertyStreet1", input.address_street1);
  set("propertyStreet2", input.address_street2);
  set("propertyCity", input.address_city);
  set("propertyState", input.address_state);
  set("propertyZip", input.address_zip);
  set("propertyCountry", input.address_country);
  set("priority", input.priority);
  set("projectedValue", input.projected_value);
  set("serviceType", input.service_type);
  set("leadSource", input.source);
  set("stage", input.stage);
  set("notes", input.notes);
  set("followUpDate", input.follow_up_date);
  return values;
}

function checkTagCount(tags: string[]): void {
  if (tags.length > TAGS_MAX) {
    throw new ValidationError([
      { field: "tags", message: `a lead can have at most ${TAGS_MAX} tags (${tags.length} after merging)` },
    ]);
  }
}

import { leads } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { normalizeEmail, normalizePhone, uniqueTags } from "@/lib/domain/normalize";
import { upsertRecord } from "@/lib/domain/upsert/upsert-record";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { LeadUpsertResponse, UpsertLeadBody } from "@/lib/schemas/leads";
import { TAGS_MAX } from "@/lib/schemas/upsert-fields";
import { LEAD_FIELDS, toLeadUpsertResponse, type LeadContext, type LeadRecordRow } from "./lead-record";

type LeadValues = Partial<typeof leads.$inferInsert>;

/**
 * POST /leads (contract section 6): update the lead with the given id (unknown: 404), else the
 * newest lead whose phone digits match, else the newest whose email matches case-insensitively
 * (archived leads too; they stay archived), else create one. Present fields overwrite, absent
 * ones are kept, null clears; tags are merged. Matching, locking and writing: upsertRecord.
 */
export async function upsertLead({
  ctx,
  input,
}: {
  ctx: LeadContext;
  input: UpsertLeadBody;
}): Promise<{ created: boolean; lead: LeadUpsertResponse }> {
  const keys = { id: input.id, phone: normalizePhone(input.phone), email: normalizeEmail(input.email) };
  const values = valuesFromInput(input);
  // Without an id, phone or email nothing can match: the call creates, and needs one of these.
  if (keys.id === undefined && !keys.phone && !keys.email && !values.name && !input.phone) {
    const message = "a new lead needs a name, an email or a phone";
    throw new ValidationError(["name", "email", "phone"].map((field) => ({ field, message })));
  }
  const { created, row } = await upsertRecord<typeof leads, LeadRecordRow>(ctx.db, {
    table: leads,
    fields: LEAD_FIELDS,
    companyId: ctx.companyId,
    keys,
    update: values,
    create: { ...values, id: newId(ID_PREFIX.lead) },
    tags: uniqueTags(input.tags ?? []),
    maxTags: TAGS_MAX,
    notFound: () => new NotFoundError("Lead"),
    tooManyTags: (count) =>
      new ValidationError([
        { field: "tags", message: `a lead can have at most ${TAGS_MAX} tags (${count} after merging)` },
      ]),
  });
  return { created, lead: toLeadUpsertResponse(row, created) };
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

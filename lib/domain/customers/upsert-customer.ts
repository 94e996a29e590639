import { and, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { customers } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { mergeTags, normalizeEmail, normalizePhone } from "@/lib/domain/normalize";
import { lockIdentities, newestFirst } from "@/lib/domain/record-matching";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { CustomerUpsertResponse, UpsertCustomerBody } from "@/lib/schemas/customers";
import { TAGS_MAX } from "@/lib/schemas/upsert-fields";
import { toCustomerUpsertResponse, type CustomerContext, type CustomerRow } from "./customer-record";

type CustomerValues = Partial<typeof customers.$inferInsert>;

const ADDRESS_PARTS = ["Street1", "Street2", "City", "State", "Zip", "Country"] as const;

/**
 * POST /customers (contract section 6): update the customer with the given id (unknown: 404),
 * else the newest customer whose phone digits match, else the newest whose email matches
 * case-insensitively (archived customers too; they stay archived), else create one (status
 * active unless given). Present fields overwrite, absent ones are kept, null clears; tags are
 * merged; while billing_same_as_property is true the billing address is the property address.
 * One transaction, serialized per phone and email (see lockIdentities), so concurrent calls for
 * the same new person create one customer.
 */
export async function upsertCustomer({
  ctx,
  input,
}: {
  ctx: CustomerContext;
  input: UpsertCustomerBody;
}): Promise<{ created: boolean; customer: CustomerUpsertResponse }> {
  const phone = input.phone == null ? null : normalizePhone(input.phone);
  const email = normalizeEmail(input.email);
  return ctx.db.transaction(async (tx) => {
    await lockIdentities(tx, "customers", ctx.companyId, { phone, email });
    const existing = await findCustomerToUpdate(tx, ctx.companyId, input, { phone, email });
    const values = valuesFromInput(input);
    if (existing) {
      const tags = mergeTags(existing.tags, input.tags ?? []);
      checkTagCount(tags);
      copyPropertyToBilling(values, existing);
      const [row] = await tx
        .update(customers)
        .set({ ...values, tags, updatedAt: new Date() })
        .where(and(eq(customers.companyId, ctx.companyId), eq(customers.id, existing.id)))
        .returning();
      return { created: false, customer: toCustomerUpsertResponse(row as CustomerRow, false) };
    }
    if (!values.firstName && !values.lastName && !values.companyName && !email && !input.phone) {
      const message = "a new customer needs a first name, last name, company name, email or phone";
      throw new ValidationError(
        ["first_name", "last_name", "company_name", "email", "phone"].map((field) => ({ field, message })),
      );
    }
    copyPropertyToBilling(values, undefined);
    const [row] = await tx
      .insert(customers)
      .values({
        ...values,
        companyId: ctx.companyId,
        id: newId(ID_PREFIX.customer),
        status: values.status ?? "active",
        tags: mergeTags([], input.tags ?? []),
      })
      .returning();
    return { created: true, customer: toCustomerUpsertResponse(row as CustomerRow, true) };
  });
}

/** The customer an upsert updates, locked for the rest of the transaction; undefined: create one. */
async function findCustomerToUpdate(
  tx: DbOrTx,
  companyId: string,
  input: UpsertCustomerBody,
  keys: { phone: string | null; email: string | null },
): Promise<CustomerRow | undefined> {
  const newestWhere = async (condition: SQL) => {
    const [row] = await tx
      .select()
      .from(customers)
      .where(and(eq(customers.companyId, companyId), condition))
      .orderBy(...newestFirst(customers.createdAt, customers.id))
      .limit(1)
      .for("update");
    return row;
  };
  if (input.id !== undefined) {
    const row = await newestWhere(eq(customers.id, input.id));
    if (!row) throw new NotFoundError("Customer");
    return row;
  }
  if (keys.phone) {
    const row = await newestWhere(eq(customers.phoneNormalized, keys.phone));
    if (row) return row;
  }
  if (keys.email) return newestWhere(eq(customers.emailNormalized, keys.email));
  return undefined;
}

/** The columns the body sets: only fields present in it (absent: kept; null: cleared). */
function valuesFromInput(input: UpsertCustomerBody): CustomerValues {
  const values: CustomerValues = {};
  const set = <K extends keyof CustomerValues>(key: K, value: CustomerValues[K] | undefined) => {
    if (value !== undefined) values[key] = value;
  };
  set("firstName", input.first_name);
  set("lastName", input.last_name);
  set("companyName", input.company_name);
  if (input.email !== undefined) {
    values.email = input.email;
    values.emailNormalized = normalizeEmail(input.email);
  }
  if (input.phone !== undefined) {
    values.phone = input.phone;
    values.phoneNormalized = normalizePhone(input.phone);
  }
  set("notes", input.notes);
  set("source", input.source);
  set("propertyStreet1", input.property_street1);
  set("propertyStreet2", input.property_street2);
  set("propertyCity", input.property_city);
  set("propertyState", input.property_state);
  set("propertyZip", input.property_zip);
  set("propertyCountry", input.property_country);
  set("billingStreet1", input.billing_street1);
  set("billingStreet2", input.billing_street2);
  set("billingCity", input.billing_city);
  set("billingState", input.billing_state);
  set("billingZip", input.billing_zip);
  set("billingCountry", input.billing_country);
  set("billingSameAsProperty", input.billing_same_as_property);
  set("serviceFrequency", input.service_frequency);
  set("serviceType", input.service_type);
  set("status", input.status);
  return values;
}

/**
 * While billing_same_as_property is (or becomes) true, the billing address is the property
 * address as it stands after this update: given billing_* fields give way to it.
 */
function copyPropertyToBilling(values: CustomerValues, existing: CustomerRow | undefined): void {
  const same = values.billingSameAsProperty ?? existing?.billingSameAsProperty ?? false;
  if (!same) return;
  for (const part of ADDRESS_PARTS) {
    const property = `property${part}` as const;
    const billing = `billing${part}` as const;
    values[billing] = values[property] !== undefined ? values[property] : (existing?.[property] ?? null);
  }
}

function checkTagCount(tags: string[]): void {
  if (tags.length > TAGS_MAX) {
    throw new ValidationError([
      {
        field: "tags",
        message: `a customer can have at most ${TAGS_MAX} tags (${tags.length} after merging)`,
      },
    ]);
  }
}

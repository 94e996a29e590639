import { sql } from "drizzle-orm";
import { customers } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { normalizeEmail, normalizePhone, uniqueTags } from "@/lib/domain/normalize";
import { upsertRecord, type ColumnValues } from "@/lib/domain/upsert/upsert-record";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { CustomerUpsertResponse, UpsertCustomerBody } from "@/lib/schemas/customers";
import { TAGS_MAX } from "@/lib/schemas/upsert-fields";
import {
  DETAILED_CUSTOMER_FIELDS,
  toCustomerUpsertResponse,
  type CustomerContext,
  type DetailedCustomerRow,
} from "./customer-record";

type CustomerValues = Partial<typeof customers.$inferInsert>;

const ADDRESS_PARTS = ["Street1", "Street2", "City", "State", "Zip", "Country"] as const;

/**
 * POST /customers (contract section 6): update the customer with the given id (unknown: 404),
 * else the newest customer whose phone digits match, else the newest whose email matches
 * case-insensitively (archived customers too; they stay archived), else create one (status
 * active unless given). Present fields overwrite, absent ones are kept, null clears; tags are
 * merged; while billing_same_as_property is true the billing address is the property address.
 * Matching, locking and writing: upsertRecord.
 */
export async function upsertCustomer({
  ctx,
  input,
}: {
  ctx: CustomerContext;
  input: UpsertCustomerBody;
}): Promise<{ created: boolean; customer: CustomerUpsertResponse }> {
  const keys = { id: input.id, phone: normalizePhone(input.phone), email: normalizeEmail(input.email) };
  const values = valuesFromInput(input);
  // Without an id, phone or email nothing can match: the call creates, and needs one of these.
  if (
    keys.id === undefined &&
    !keys.phone &&
    !keys.email &&
    !values.firstName &&
    !values.lastName &&
    !values.companyName &&
    !input.phone
  ) {
    const message = "a new customer needs a first name, last name, company name, email or phone";
    throw new ValidationError(
      ["first_name", "last_name", "company_name", "email", "phone"].map((field) => ({ field, message })),
    );
  }
  const { created, row } = await upsertRecord<typeof customers, DetailedCustomerRow>(ctx.db, {
    table: customers,
    fields: DETAILED_CUSTOMER_FIELDS,
    companyId: ctx.companyId,
    keys,
    update: { ...values, ...billingOnUpdate(values) },
    create: {
      ...values,
      ...billingOnCreate(values),
      id: newId(ID_PREFIX.customer),
      status: values.status ?? "active",
    },
    tags: uniqueTags(input.tags ?? []),
    maxTags: TAGS_MAX,
    notFound: () => new NotFoundError("Customer"),
    tooManyTags: (count) =>
      new ValidationError([
        { field: "tags", message: `a customer can have at most ${TAGS_MAX} tags (${count} after merging)` },
      ]),
  });
  return { created, customer: toCustomerUpsertResponse(row, created) };
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
 * address as it stands after the call: given billing_* fields give way to it. A new customer:
 * the flag as given (default false).
 */
function billingOnCreate(values: CustomerValues): CustomerValues {
  const copy: CustomerValues = {};
  if (!values.billingSameAsProperty) return copy;
  for (const part of ADDRESS_PARTS) copy[`billing${part}`] = values[`property${part}`] ?? null;
  return copy;
}

/**
 * An update: the flag as given, else as stored, so the copy is SQL over the stored row (its
 * property address where the body gives none, its billing address where the flag is off).
 */
function billingOnUpdate(values: CustomerValues): ColumnValues<typeof customers> {
  const copy: ColumnValues<typeof customers> = {};
  if (values.billingSameAsProperty === false) return copy;
  for (const part of ADDRESS_PARTS) {
    const property = `property${part}` as const;
    const billing = `billing${part}` as const;
    const propertyAfter =
      values[property] !== undefined ? sql`${values[property]}` : sql`${customers[property]}`;
    if (values.billingSameAsProperty) {
      copy[billing] = propertyAfter;
    } else {
      const billingAfter =
        values[billing] !== undefined ? sql`${values[billing]}` : sql`${customers[billing]}`;
      copy[billing] =
        sql`case when ${customers.billingSameAsProperty} then ${propertyAfter} else ${billingAfter} end`;
    }
  }
  return copy;
}

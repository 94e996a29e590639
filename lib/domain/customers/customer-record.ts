import "server-only";
import type { DomainContext } from "@/lib/domain/context";
import { customers } from "@/lib/db/schema";
import { PROPERTY_ADDRESS_KEYS } from "@/lib/db/schema/columns";
import { sql } from "drizzle-orm";
import {
  columnsOfFields,
  PROPERTY_ADDRESS_FIELD_COLUMNS,
  type RecordFieldValues,
} from "@/lib/domain/records/columns";
import { iso } from "@/lib/schemas/common";
import { recordFields, toLocation, type RecordRow } from "@/lib/domain/records/fields";
import type { ColumnValues, MatchedOn } from "@/lib/domain/upsert/upsert-record";
import {
  CUSTOMER_MESSAGES,
  type Customer,
  type CustomerAddress,
  type CustomerDetail,
  type CustomerUpsertResponse,
} from "@/lib/schemas/customers";

/** What the customer rules need of a request: the database and the tenant. */
export type CustomerContext = Pick<DomainContext, "db" | "companyId">;

export type CustomerValues = Partial<typeof customers.$inferInsert>;

/**
 * The fields a customer's create-or-update and the import set, by their record names, and the
 * column each is stored in.
 */
const CUSTOMER_FIELD_COLUMNS = {
  first_name: "firstName",
  last_name: "lastName",
  company_name: "companyName",
  email: "email",
  phone: "phone",
  notes: "notes",
  source: "source",
  ...PROPERTY_ADDRESS_FIELD_COLUMNS,
  billing_street1: "billingStreet1",
  billing_street2: "billingStreet2",
  billing_city: "billingCity",
  billing_state: "billingState",
  billing_zip: "billingZip",
  billing_country: "billingCountry",
  billing_same_as_property: "billingSameAsProperty",
  service_frequency: "serviceFrequency",
  service_type: "serviceType",
  status: "status",
} as const satisfies Record<string, keyof CustomerValues>;

export type CustomerFields = RecordFieldValues<CustomerValues, typeof CUSTOMER_FIELD_COLUMNS>;

/**
 * The columns a customer's fields set: only those present (`absent: "kept"`, an update), or every
 * column with absent ones null (`absent: "null"`).
 */
export function customerColumns(fields: CustomerFields, absent: "kept" | "null"): CustomerValues {
  return columnsOfFields<CustomerValues, typeof CUSTOMER_FIELD_COLUMNS>(
    CUSTOMER_FIELD_COLUMNS,
    fields,
    absent,
  );
}

/**
 * Every column of a new customer's fields (a create, an import): absent ones null, the status
 * active and billing_same_as_property false unless given, and the billing address per that flag.
 */
export function newCustomerColumns(fields: CustomerFields): CustomerValues {
  const values = customerColumns(fields, "null");
  values.status ??= "active";
  values.billingSameAsProperty ??= false;
  return Object.assign(values, billingOnCreate(values));
}

const ADDRESS_PARTS = ["Street1", "Street2", "City", "State", "Zip", "Country"] as const;

/**
 * While billing_same_as_property is (or becomes) true, the billing address is the property
 * address after the call, overriding given billing_* fields. A new customer: the flag as given.
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
export function billingOnUpdate(values: CustomerValues): ColumnValues<typeof customers> {
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

/**
 * billingOnUpdate over a stored row held in memory (the CSV import, which reads the rows it
 * updates): the billing columns after the update, the same rule.
 */
export function billingAfterUpdate(
  values: CustomerValues,
  stored: typeof customers.$inferSelect,
): CustomerValues {
  const copy: CustomerValues = {};
  if (values.billingSameAsProperty === false) return copy;
  const same = values.billingSameAsProperty ?? stored.billingSameAsProperty;
  if (!same) return copy;
  for (const part of ADDRESS_PARTS) {
    const property = `property${part}` as const;
    copy[`billing${part}`] = values[property] !== undefined ? values[property] : stored[property];
  }
  return copy;
}

/** The columns of what the list answers of a customer. */
const LISTED_CUSTOMER_KEYS = [
  "id",
  "firstName",
  "lastName",
  "companyName",
  "email",
  "phone",
  "notes",
  "source",
  ...PROPERTY_ADDRESS_KEYS,
  "status",
  "tags",
  "createdAt",
  "latitude",
  "longitude",
  "isAutoPay",
] as const;

/** The columns of a customer's detail: the listed ones and the billing and service ones. */
const DETAILED_CUSTOMER_KEYS = [
  ...LISTED_CUSTOMER_KEYS,
  "hasPaymentMethod",
  "billingStreet1",
  "billingStreet2",
  "billingCity",
  "billingState",
  "billingZip",
  "billingCountry",
  "billingSameAsProperty",
  "serviceFrequency",
  "serviceType",
  "archived",
  "archivedAt",
  "leadId",
] as const;

/** What the list selects of a customer (recordFields), mapped by toCustomer. */
export const LISTED_CUSTOMER_FIELDS = recordFields(customers, LISTED_CUSTOMER_KEYS);
export type ListedCustomerRow = RecordRow<typeof customers, (typeof LISTED_CUSTOMER_KEYS)[number]>;

/** What get-by-id and create-or-update select of a customer: toCustomerDetail, toCustomerUpsertResponse. */
export const DETAILED_CUSTOMER_FIELDS = recordFields(customers, DETAILED_CUSTOMER_KEYS);
export type DetailedCustomerRow = RecordRow<typeof customers, (typeof DETAILED_CUSTOMER_KEYS)[number]>;

// Customer responses omit valueless string fields instead of null, since interface.md types them
// as plain strings; `address` is the exception: "" when unknown, street2 left out.

/** Sets `key` when `value` has a value (a non-empty string). */
function setText<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: string | null | undefined,
): void {
  if (value != null && value !== "") target[key] = value as T[K];
}

/** Only the entries that have a value (setText, entry by entry). */
function present<T extends Record<string, string | null>>(fields: T): { [K in keyof T]?: string } {
  const out: { [K in keyof T]?: string } = {};
  for (const key of Object.keys(fields) as (keyof T)[]) setText(out, key, fields[key]);
  return out;
}

// A list answers up to 1,000 customers, so these are built field by field in one key order,
// without throwaway spread objects; the list's API test checks the keys and their order.

function toAddress(row: ListedCustomerRow): CustomerAddress {
  const address = { street1: row.property_street1 ?? "" } as CustomerAddress;
  if (row.property_street2) address.street2 = row.property_street2;
  address.city = row.property_city ?? "";
  address.state = row.property_state ?? "";
  address.zip = row.property_zip ?? "";
  address.country = row.property_country ?? "";
  return address;
}

/** A stored customer as the list returns it. */
export function toCustomer(row: ListedCustomerRow): Customer {
  const customer = { id: row.id } as Customer;
  setText(customer, "first_name", row.first_name);
  setText(customer, "last_name", row.last_name);
  setText(customer, "company_name", row.company_name);
  setText(customer, "email", row.email);
  setText(customer, "phone", row.phone);
  setText(customer, "notes", row.notes);
  setText(customer, "source", row.source);
  customer.address = toAddress(row);
  customer.status = row.status;
  customer.tags = row.tags;
  customer.created_at = row.created_at.toISOString();
  const location = toLocation(row.latitude, row.longitude);
  if (location) customer.location = location;
  customer.is_auto_pay = row.is_auto_pay;
  return customer;
}

/** The billing address (present parts), its flag and the service fields, as both flat answers hold them. */
function billingAndService(row: DetailedCustomerRow) {
  return {
    ...present({
      billing_street1: row.billing_street1,
      billing_street2: row.billing_street2,
      billing_city: row.billing_city,
      billing_state: row.billing_state,
      billing_zip: row.billing_zip,
      billing_country: row.billing_country,
    }),
    billing_same_as_property: row.billing_same_as_property,
    ...present({ service_frequency: row.service_frequency, service_type: row.service_type }),
  };
}

/** A stored customer as get-by-id returns it. */
export function toCustomerDetail(row: DetailedCustomerRow): CustomerDetail {
  return {
    ...toCustomer(row),
    has_payment_method: row.has_payment_method,
    ...billingAndService(row),
    archived: row.archived,
    ...present({ archived_at: iso(row.archived_at), lead_id: row.lead_id }),
  };
}

/** The flat create-or-update answer; `status` is the customer's own status; matched_on null: created. */
export function toCustomerUpsertResponse(
  row: DetailedCustomerRow,
  matchedOn: MatchedOn | null,
): CustomerUpsertResponse {
  return {
    id: row.id,
    ...present({
      first_name: row.first_name,
      last_name: row.last_name,
      company_name: row.company_name,
      email: row.email,
      phone: row.phone,
      notes: row.notes,
      source: row.source,
      property_street1: row.property_street1,
      property_street2: row.property_street2,
      property_city: row.property_city,
      property_state: row.property_state,
      property_zip: row.property_zip,
      property_country: row.property_country,
    }),
    ...billingAndService(row),
    status: row.status,
    tags: row.tags,
    created_at: row.created_at.toISOString(),
    message: matchedOn === null ? CUSTOMER_MESSAGES.created : CUSTOMER_MESSAGES.updated,
    matched_on: matchedOn,
  };
}

import "server-only";
import { normalizeEmail, normalizePhone } from "@/lib/values/normalize";

/** A lead's or customer's record field names, each with the column it is stored in. */
export type FieldColumns<V> = Readonly<Record<string, keyof V & string>>;

/** The property address of a lead or customer: its record fields and their columns. */
export const PROPERTY_ADDRESS_FIELD_COLUMNS = {
  property_street1: "propertyStreet1",
  property_street2: "propertyStreet2",
  property_city: "propertyCity",
  property_state: "propertyState",
  property_zip: "propertyZip",
  property_country: "propertyCountry",
} as const;

/** The fields of FieldColumns, by their record names (absent, null or a value). */
export type RecordFieldValues<V, M extends FieldColumns<V>> = { [F in keyof M]?: V[M[F]] | null };

/** What a record's email and phone set besides themselves: their normalized forms (the matching keys). */
interface Identities {
  email?: string | null;
  phone?: string | null;
  emailNormalized?: string | null;
  phoneNormalized?: string | null;
}

/**
 * The columns a record's fields set: `absent: "kept"` only present fields (an update), `absent:
 * "null"` every column (a create or import). Email and phone set their normalized forms too.
 */
export function columnsOfFields<V extends Identities, M extends FieldColumns<V>>(
  columns: M,
  fields: RecordFieldValues<V, M>,
  absent: "kept" | "null",
): V {
  const values: Record<string, unknown> = {};
  for (const field in columns) {
    const value = fields[field];
    if (value !== undefined) values[columns[field]!] = value;
    else if (absent === "null") values[columns[field]!] = null;
  }
  const { email, phone } = values as Identities;
  if (email !== undefined) values.emailNormalized = normalizeEmail(email);
  if (phone !== undefined) values.phoneNormalized = normalizePhone(phone);
  return values as V;
}

import type { ChangeField, RecordView } from "@/components/records/record-changes";
import { ADDRESS_PARTS } from "@/components/records/record-form";

/**
 * The customer fields the "already exists" dialog compares and Undo restores, by their
 * create-or-update names (customerView flattens a get-by-id record to them).
 */
export const CUSTOMER_CHANGE_FIELDS: readonly ChangeField[] = [
  { key: "first_name", label: "First name" },
  { key: "last_name", label: "Last name" },
  { key: "company_name", label: "Company name" },
  { key: "email", label: "Email" },
  { key: "phone", label: "Phone" },
  { key: "property_street1", label: "Street" },
  { key: "property_street2", label: "Street line 2" },
  { key: "property_city", label: "City" },
  { key: "property_state", label: "State" },
  { key: "property_zip", label: "ZIP" },
  { key: "property_country", label: "Country" },
  { key: "billing_same_as_property", label: "Billing same as property" },
  { key: "billing_street1", label: "Billing street" },
  { key: "billing_street2", label: "Billing street line 2" },
  { key: "billing_city", label: "Billing city" },
  { key: "billing_state", label: "Billing state" },
  { key: "billing_zip", label: "Billing ZIP" },
  { key: "billing_country", label: "Billing country" },
  { key: "status", label: "Status" },
  { key: "service_frequency", label: "Service frequency" },
  { key: "service_type", label: "Service type" },
  { key: "source", label: "Source" },
  { key: "tags", label: "Tags" },
  { key: "notes", label: "Notes" },
];

/**
 * A customer as a flat view: get-by-id holds the property address in `address`, the
 * create-or-update answer as property_*.
 */
export function customerView(record: Record<string, unknown>): RecordView {
  const view: RecordView = { ...record };
  const address = record.address as Record<string, string | undefined> | undefined;
  if (address) for (const part of ADDRESS_PARTS) view[`property_${part}`] = address[part];
  return view;
}

import type { ChangeField } from "@/components/records/record-changes";

/**
 * The lead fields the "already exists" dialog compares and Undo restores, by their record names
 * (get-by-id and the create-or-update answer share them), with the body name where it differs.
 */
export const LEAD_CHANGE_FIELDS: readonly ChangeField[] = [
  { key: "name", label: "Name" },
  { key: "email", label: "Email" },
  { key: "phone", label: "Phone" },
  { key: "property_street1", label: "Street", body: "address_street1" },
  { key: "property_street2", label: "Street line 2", body: "address_street2" },
  { key: "property_city", label: "City", body: "address_city" },
  { key: "property_state", label: "State", body: "address_state" },
  { key: "property_zip", label: "ZIP", body: "address_zip" },
  { key: "property_country", label: "Country", body: "address_country" },
  { key: "stage", label: "Stage" },
  { key: "priority", label: "Priority" },
  { key: "projected_value", label: "Projected value" },
  { key: "follow_up_date", label: "Follow-up date" },
  { key: "service_type", label: "Service type" },
  { key: "lead_source", label: "Source", body: "source" },
  { key: "tags", label: "Tags" },
  { key: "notes", label: "Notes" },
];

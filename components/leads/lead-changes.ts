import type { AskFirstField, ChangeField } from "@/components/records/record-changes";

/**
 * The lead fields the "already exists" dialog compares and Undo restores, by their record names
 * (get-by-id and the create-or-update answer share them), with the body name where it differs.
 * In the form's order: an owner change is a change like any other.
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
  { key: "assigned_to", label: "Owner" },
  { key: "priority", label: "Priority" },
  { key: "projected_value", label: "Projected value" },
  { key: "follow_up_date", label: "Follow-up date" },
  { key: "service_type", label: "Service type" },
  { key: "lead_source", label: "Source", body: "source" },
  { key: "tags", label: "Tags" },
  { key: "notes", label: "Notes" },
];

/**
 * Fields a matched "New lead" changes only when the user ticks them: the matched lead may be
 * someone else's, and the form's owner was chosen for a new lead.
 */
export const LEAD_ASK_FIRST: readonly AskFirstField[] = [
  {
    key: "assigned_to",
    choice: (after) => (after === "—" ? "Also remove the owner" : `Also make ${after} the owner`),
    note: (before) =>
      before === "—"
        ? "The lead has no owner now; left unticked, it keeps none."
        : `The lead belongs to ${before}; left unticked, it stays theirs.`,
  },
];

import { CUSTOMER_CHANGE_FIELDS } from "@/components/customers/customer-changes";
import { STATUS_OPTIONS } from "@/components/customers/customer-options";
import { LEAD_CHANGE_FIELDS } from "@/components/leads/lead-changes";
import { PRIORITY_OPTIONS } from "@/components/leads/lead-options";
import { formatDate, formatMoney } from "@/lib/format";
import type { RecordKind } from "./record-kind";

// An activity entry's changes as the timeline shows them: labels and values formatted as on the
// record's page, empty as "—", tag lists as tags added and removed.

/** Fields the forms do not edit, by the record's kind; the others take their form's label. */
const OTHER_LABELS: Record<RecordKind, Record<string, string>> = {
  lead: { location: "Location", customer_id: "Customer", archived: "Archived" },
  customer: { is_auto_pay: "Auto-pay", location: "Location", lead_id: "Lead", archived: "Archived" },
};

/** "stage" → "Stage", "address.city" → "City", "billing_zip" → "Billing ZIP": as the forms label them. */
export function fieldLabel(kind: RecordKind, field: string): string {
  // A customer's GET answer nests the property address; the form names it property_*.
  const key = field.replace(/^address\./, "property_");
  const fields = kind === "lead" ? LEAD_CHANGE_FIELDS : CUSTOMER_CHANGE_FIELDS;
  const label = fields.find((f) => f.key === key)?.label ?? OTHER_LABELS[kind][field];
  if (label) return label;
  // A field this page does not know yet: its name, readable.
  const words = field.replace(/[._]/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What the timeline needs from the page to name values: stage labels and user names. */
export interface ValueNames {
  stageLabel: (key: string) => string;
  userName: (id: string) => string;
}

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/** One value as the timeline shows it ("—" when empty). */
export function formatChangeValue(field: string, value: unknown, names: ValueNames): string {
  if (isEmpty(value)) return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (field === "stage" && typeof value === "string") return names.stageLabel(value);
  if (field === "assigned_to" && typeof value === "string") return names.userName(value);
  if (field === "projected_value") return formatMoney(Number(value));
  if (field === "follow_up_date" || field.endsWith("_at")) return formatDate(String(value));
  if (field === "location" && Array.isArray(value)) return value.map((n) => String(n)).join(", ");
  if (field === "priority" || field === "status") {
    const options: readonly { value: string; label: string }[] =
      field === "priority" ? PRIORITY_OPTIONS : STATUS_OPTIONS;
    const option = options.find((o) => o.value === value);
    if (option) return option.label;
  }
  if (Array.isArray(value)) return value.map(String).join(", ");
  return String(value);
}

export type ChangeLine =
  | { kind: "value"; field: string; label: string; from: string; to: string }
  | { kind: "tags"; field: string; label: string; added: string[]; removed: string[] };

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** One change as a line of the timeline. */
export function describeChange(
  kind: RecordKind,
  change: { field: string; from: unknown; to: unknown },
  names: ValueNames,
): ChangeLine {
  const label = fieldLabel(kind, change.field);
  if (change.field === "tags") {
    const before = asList(change.from);
    const after = asList(change.to);
    return {
      kind: "tags",
      field: change.field,
      label,
      added: after.filter((t) => !before.includes(t)),
      removed: before.filter((t) => !after.includes(t)),
    };
  }
  return {
    kind: "value",
    field: change.field,
    label,
    from: formatChangeValue(change.field, change.from, names),
    to: formatChangeValue(change.field, change.to, names),
  };
}

/** A change as one sentence of text ("Stage: New → Contacted", "Tags: added vip; removed old"). */
export function changeText(line: ChangeLine): string {
  if (line.kind === "value") return `${line.label}: ${line.from} → ${line.to}`;
  const parts = [
    line.added.length > 0 ? `added ${line.added.join(", ")}` : "",
    line.removed.length > 0 ? `removed ${line.removed.join(", ")}` : "",
  ].filter(Boolean);
  return `${line.label}: ${parts.join("; ") || "reordered"}`;
}

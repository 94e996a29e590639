import { PLAN_FREQUENCIES } from "@/lib/values/enums";

// Suggestions only: `service_frequency` is a free string in the API; the plan names keep the words alike.
export const SERVICE_FREQUENCIES = PLAN_FREQUENCIES.filter((frequency) => frequency !== "Custom");

export const CUSTOMER_SOURCES = [
  "Website",
  "Referral",
  "Converted lead",
  "Door-to-door",
  "Phone",
  "Google Ads",
];

export const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
] as const;

/**
 * Suggestions for the customer form. `service_frequency` and `service_type` are free strings in
 * the API; the frequencies are the service-plan names of interface.md so the words match.
 */
export const SERVICE_FREQUENCIES = [
  "One-Time",
  "Annual",
  "Semi-Annual",
  "Tri-Annual",
  "Quarterly",
  "Bi-Monthly",
  "Monthly",
  "Bi-Weekly",
  "Weekly",
];

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

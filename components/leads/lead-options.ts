/**
 * Suggested values for the lead pages. `stage`, `source` and `service_type` are free strings in
 * the API (interface.md); these lists only feed the stage filter and the form's suggestions, and
 * any other value still shows and saves.
 */
export const LEAD_STAGES = ["New", "Contacted", "Qualified", "Proposal Sent", "Won", "Lost"] as const;

export const LEAD_SOURCES = [
  "Website",
  "Referral",
  "Door-to-door",
  "Phone",
  "Google Ads",
  "Facebook",
  "Yard sign",
];

export const SERVICE_TYPES = [
  "Pest Control",
  "Lawn Care",
  "Mosquito Control",
  "Termite Treatment",
  "Pool Service",
  "HVAC Maintenance",
];

export const PRIORITY_OPTIONS = [
  { value: "low", label: "Low" },
  { value: "medium", label: "Medium" },
  { value: "high", label: "High" },
] as const;

/**
 * Suggested values for the lead form: `source` and `service_type` are free strings in the API, so
 * any other value still shows and saves. Stages come from the company's pipeline.
 */
export const LEAD_SOURCES = [
  "Website",
  "Door to door",
  "Referral",
  "Google Ads",
  "Phone call",
  "Yelp",
  "Facebook",
];

export const SERVICE_TYPES = [
  "General Pest",
  "Termite",
  "Mosquito",
  "Rodent",
  "Bed Bug",
  "Wildlife",
  "Mowing",
  "Fertilization",
  "Weed Control",
  "Aeration",
  "Landscape Maintenance",
  "Irrigation Check",
];

export const PRIORITY_OPTIONS = [
  { value: "low", label: "Low" },
  { value: "medium", label: "Medium" },
  { value: "high", label: "High" },
] as const;

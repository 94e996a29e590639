/**
 * Suggested values for the lead pages. `stage`, `source` and `service_type` are free strings in
 * the API (interface.md); these lists only feed the stage filter and the form's suggestions, and
 * any other value still shows, filters and saves. They follow the demo data's pipeline.
 */
export const LEAD_STAGES = [
  { value: "new", label: "New" },
  { value: "contacted", label: "Contacted" },
  { value: "quoted", label: "Quoted" },
  { value: "won", label: "Won" },
  { value: "lost", label: "Lost" },
] as const;

/** A stage as shown: the label of a known stage, else the stored value as is. */
export function stageLabel(stage: string): string {
  return LEAD_STAGES.find((s) => s.value === stage)?.label ?? stage;
}

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

"use client";

import { SelectFilter } from "@/components/data-table/table-filters";
import { useCan } from "@/lib/query/session";
import { territoryOptions, useTerritories } from "@/lib/query/territories";

/** "Territory": leads whose location lies inside a territory, as GET /leads?territory_id= finds them. */
export function TerritoryFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  // Territories are read with pins:read; a role without it has no territory to choose.
  const canRead = useCan("pins:read");
  const territories = useTerritories(canRead);
  if (!canRead) return null;
  return (
    <SelectFilter
      id="leads-territory"
      label="Territory"
      value={value}
      onChange={onChange}
      placeholder="Anywhere"
      options={territoryOptions(territories.data, value)}
    />
  );
}

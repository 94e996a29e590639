"use client";

import { FilterField } from "@/components/data-table/table-filters";
import { Select } from "@/components/ui";
import { useHasScope } from "@/lib/query/session";
import { territoryOptions, useTerritories } from "@/lib/query/territories";

/** "Territory": leads whose location lies inside a territory, as GET /leads?territory_id= finds them. */
export function TerritoryFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  // Territories are read with pins:read; a role without it has no territory to choose.
  const canRead = useHasScope("pins:read");
  const territories = useTerritories(canRead);
  if (!canRead) return null;
  return (
    <FilterField id="leads-territory" label="Territory">
      <Select
        id="leads-territory"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="Anywhere"
        options={territoryOptions(territories.data, value)}
      />
    </FilterField>
  );
}

import type { SortingState } from "@tanstack/react-table";

/** The API's `sort` (`stage,-projected_value`) as the table's sorting, unknown or repeated fields left out. */
export function parseSort(sort: string, fields: readonly string[]): SortingState {
  const sorting: SortingState = [];
  for (const item of sort.split(",")) {
    const id = item.trim().replace(/^-/, "");
    if (fields.includes(id) && !sorting.some((s) => s.id === id)) {
      sorting.push({ id, desc: item.trim().startsWith("-") });
    }
  }
  return sorting;
}

/** The table's sorting as the API's `sort`. */
export function formatSort(sorting: SortingState): string {
  return sorting.map((s) => `${s.desc ? "-" : ""}${s.id}`).join(",");
}

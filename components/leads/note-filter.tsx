"use client";

import { SearchFilter } from "@/components/data-table/table-filters";

/** "Notes": leads with a note (their activity's) containing the text, as GET /leads?note= finds them. */
export function NoteFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <SearchFilter
      id="lead-note-filter"
      label="Notes"
      placeholder="Text in a note"
      value={value}
      onChange={onChange}
    />
  );
}

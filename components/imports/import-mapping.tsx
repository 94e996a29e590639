"use client";

import { useId } from "react";
import { Select } from "@/components/ui/select";
import { cn } from "@/components/ui/cn";
import type { ImportMapping, ImportResponse } from "@/lib/query/imports";
import { mappingErrors, sampleValues } from "./import-steps";

/** The select's value for an ignored column (a field name is never empty). */
const IGNORE = "";

/**
 * The file's columns, each with up to three sample values and the field it fills (or Ignore). One
 * list for every width: three columns from md up, stacked on phones.
 */
export function ImportMappingTable({
  imported,
  mapping,
  onChange,
  disabled,
}: {
  imported: Pick<ImportResponse, "headers" | "sample" | "fields">;
  mapping: ImportMapping;
  onChange: (mapping: ImportMapping) => void;
  disabled: boolean;
}) {
  const baseId = useId();
  const labels = new Map(imported.fields.map((f) => [f.field, f.label]));
  const errors = mappingErrors(mapping, imported.headers, (field) => labels.get(field) ?? field);
  const options = [
    { value: IGNORE, label: "Ignore this column" },
    ...imported.fields.map((f) => ({ value: f.field, label: f.label })),
  ];
  return (
    <div>
      <div
        aria-hidden="true"
        className="hidden border-b border-slate-200 bg-slate-50 px-5 py-2.5 text-xs font-semibold tracking-wide text-slate-500 uppercase md:grid md:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_minmax(0,18rem)] md:gap-6"
      >
        <span>Column in the file</span>
        <span>Sample values</span>
        <span>Imported as</span>
      </div>
      <ul aria-label="Columns of the file" className="divide-y divide-slate-100">
        {imported.headers.map((header, column) => {
          const id = `${baseId}-${column}`;
          const samples = sampleValues(imported.sample, column);
          const field = mapping[column] ?? null;
          const error = errors[column];
          return (
            <li
              key={column}
              data-testid="mapping-row"
              className={cn(
                "grid gap-2 px-4 py-3 sm:px-5 md:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_minmax(0,18rem)] md:items-center md:gap-6",
                field === null && "bg-slate-50/60",
              )}
            >
              <label htmlFor={id} className="text-sm font-medium break-words text-slate-900">
                {header}
              </label>
              <div id={`${id}-samples`} className="min-w-0 text-sm text-slate-600">
                <span className="sr-only">Sample values: </span>
                {samples.length > 0 ? (
                  <ul className="flex flex-wrap gap-1.5">
                    {samples.map((value, i) => (
                      <li
                        key={i}
                        className="max-w-full truncate rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700"
                        title={value}
                      >
                        {value}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="text-xs text-slate-500 italic">empty in the first rows</span>
                )}
              </div>
              <div className="space-y-1">
                <Select
                  id={id}
                  value={field ?? IGNORE}
                  disabled={disabled}
                  invalid={Boolean(error)}
                  aria-describedby={`${id}-samples${error ? ` ${id}-error` : ""}`}
                  options={options}
                  onChange={(event) => {
                    const next = [...mapping];
                    next[column] = event.target.value === IGNORE ? null : event.target.value;
                    onChange(next);
                  }}
                />
                {error ? (
                  <p id={`${id}-error`} className="text-xs font-medium text-red-600">
                    {error}
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Whether the mapping may be checked: no field twice (the server checks the rest and says so). */
export function mappingIsValid(imported: Pick<ImportResponse, "headers">, mapping: ImportMapping): boolean {
  return mappingErrors(mapping, imported.headers, (f) => f).every((e) => e === undefined);
}

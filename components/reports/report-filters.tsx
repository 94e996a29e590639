"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, type SelectOption } from "@/components/ui/select";
import { ApiClientError } from "@/lib/query/api-client";

/**
 * The filter bar of a report: labelled controls that wrap on narrow screens, and "Clear filters"
 * when any is set. Each control is described by a small spec so the two reports share the look.
 */

export type FilterControl = (
  | { kind: "date"; key: string; label: string; value: string; max?: string; min?: string }
  | {
      kind: "select";
      key: string;
      label: string;
      value: string;
      options: readonly SelectOption[];
      /** The "no filter" choice; omit for a select that always has a value. */
      placeholder?: string;
    }
) & {
  /** Why the API refused this filter, shown beside it (filterErrors). */
  error?: string;
};

/**
 * The API's 400 about the filters as one text per parameter. A backwards range is named by its end
 * (extensions.md E7), which a date picker can still be typed into.
 */
export function filterErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiClientError) || error.code !== "VALIDATION_ERROR") return {};
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(error.fieldErrors())) {
    out[field] = message.startsWith("must not be before")
      ? "Must not be before the “from” date."
      : `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
  }
  return out;
}

/**
 * A "from" and a "to" date over the API's `<field>_range_start` and `<field>_range_end`
 * (e.g. "Service from", "Service to"); neither picker lets the range run backwards.
 */
export function dateRangeControls<F extends string>(
  view: NoInfer<Record<`${F}_range_start` | `${F}_range_end`, string>>,
  field: F,
  label: string,
  errors: Record<string, string> = {},
): FilterControl[] {
  return datePairControls(
    { key: `${field}_range_start`, label: `${label} from`, value: view[`${field}_range_start`] },
    { key: `${field}_range_end`, label: `${label} to`, value: view[`${field}_range_end`] },
    errors,
  );
}

/** Two date pickers bounding each other (a range with parameters of any name, e.g. from and to). */
export function datePairControls(
  start: { key: string; label: string; value: string },
  end: { key: string; label: string; value: string },
  errors: Record<string, string> = {},
): FilterControl[] {
  return [
    { kind: "date", ...start, max: end.value || undefined, error: errors[start.key] },
    { kind: "date", ...end, min: start.value || undefined, error: errors[end.key] },
  ];
}

interface Props {
  controls: readonly FilterControl[];
  onChange: (key: string, value: string) => void;
  /** Shown when any filter differs from its default. */
  onClear?: () => void;
}

export function ReportFilters({ controls, onChange, onClear }: Props) {
  return (
    <div
      role="group"
      aria-label="Filters"
      // Top-aligned, so that an error under one control leaves the others in line.
      className="grid grid-cols-2 items-start gap-3 sm:grid-cols-3 lg:flex lg:flex-wrap"
    >
      {controls.map((control) => (
        <Field
          key={control.key}
          label={control.label}
          error={control.error}
          // A select is as wide as its longest option ("Completed jobs only"), a date picker fixed.
          className={control.kind === "select" ? "min-w-0 lg:w-auto lg:min-w-44" : "min-w-0 lg:w-44"}
        >
          {control.kind === "date" ? (
            <Input
              type="date"
              name={control.key}
              value={control.value}
              min={control.min}
              max={control.max}
              onChange={(e) => onChange(control.key, e.target.value)}
            />
          ) : (
            <Select
              name={control.key}
              value={control.value}
              placeholder={control.placeholder}
              options={control.options}
              onChange={(e) => onChange(control.key, e.target.value)}
            />
          )}
        </Field>
      ))}
      {onClear ? (
        // Level with the controls: below a label's line (text-sm) and the Field's gap.
        <div className="flex pt-6.5">
          <Button variant="ghost" onClick={onClear}>
            Clear filters
          </Button>
        </div>
      ) : null}
    </div>
  );
}

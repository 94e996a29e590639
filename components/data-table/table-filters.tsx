"use client";

import { Label } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { Select, type SelectOption } from "@/components/ui/select";
import { DebouncedInput } from "./debounced-input";

/**
 * Building blocks of a table's filter bar (the `toolbar` of DataTable): each a visible label
 * over its control, sized to wrap two per row on phones and sit in one row on desktops.
 */

export function FilterBar({ children, className }: { children: React.ReactNode; className?: string }) {
  return <div className={cn("flex min-w-0 flex-1 flex-wrap items-end gap-3", className)}>{children}</div>;
}

/** One labelled filter. `wide`: a full row on phones (e.g. the search box). */
export function FilterField({
  id,
  label,
  wide = false,
  className,
  children,
}: {
  id: string;
  label: string;
  wide?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn("space-y-1.5", wide ? "w-full sm:w-64" : "w-[calc(50%-0.375rem)] sm:w-44", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** A labelled choice; `placeholder` is the first, empty choice ("Anyone", "All stages"). */
export function SelectFilter({
  id,
  label,
  value,
  onChange,
  placeholder,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  options: readonly SelectOption[];
}) {
  return (
    <FilterField id={id} label={label}>
      <Select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        options={options}
      />
    </FilterField>
  );
}

/** The debounced "Search" box. */
export function SearchFilter({
  id,
  value,
  onChange,
  placeholder,
  label = "Search",
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  label?: string;
}) {
  return (
    <FilterField id={id} label={label} wide>
      <DebouncedInput
        id={id}
        type="search"
        placeholder={placeholder}
        value={value}
        onValueChange={onChange}
      />
    </FilterField>
  );
}

/** Comma-separated tags; a record matches if it has any of them. */
export function TagsFilter({
  id,
  value,
  onChange,
  placeholder = "e.g. referral, repeat",
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  return (
    <>
      <FilterField id={id} label="Tags">
        <DebouncedInput
          id={id}
          placeholder={placeholder}
          aria-describedby={`${id}-hint`}
          value={value}
          onValueChange={onChange}
        />
      </FilterField>
      {/* Outside the field: a hidden last child would still shift the field's spacing. */}
      <span id={`${id}-hint`} hidden>
        Comma-separated; shows records with any of these tags.
      </span>
    </>
  );
}

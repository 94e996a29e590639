"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
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

/**
 * A list's filter bar that gives a phone's first screen to the records: there, `lead` (the search
 * box) stays in view beside a "Filters" button that counts the active filters and shows the rest;
 * from `sm` up, everything sits in one bar as FilterBar.
 */
export function CollapsibleFilterBar({
  id,
  lead,
  active,
  children,
}: {
  /** The id of the collapsible part (the button's aria-controls). */
  id: string;
  lead: React.ReactNode;
  /** How many of the collapsed filters are set. */
  active: number;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
      <div className="flex min-w-0 items-end gap-2 sm:contents">
        {lead}
        <Button
          variant="secondary"
          className="shrink-0 sm:hidden"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((shown) => !shown)}
        >
          {active > 0 ? `Filters (${active})` : "Filters"}
        </Button>
      </div>
      <div id={id} className={cn(open ? "flex" : "hidden", "min-w-0 flex-wrap items-end gap-3 sm:contents")}>
        {children}
      </div>
    </div>
  );
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
  className,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  label?: string;
  className?: string;
}) {
  return (
    <FilterField id={id} label={label} wide className={className}>
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

"use client";

import { useId, useState } from "react";
import { TagList } from "@/components/data-table/cells";
import { Button, Field, Input, Notice, type SelectOption, Textarea } from "@/components/ui";
import { NOTES_MAX, SHORT_TEXT_MAX } from "@/lib/schemas/upsert-fields";
import {
  type FieldErrors,
  focusFirstError,
  isFormDirty,
  serverFieldErrors,
  unplacedErrors,
} from "./form-support";

// What the lead and customer forms share: state, the save flow, and the sections with the same
// fields in both; each form keeps its own fields, labels and rules.

/** A form's text values and errors, as its field components read and change them. */
export interface FormBinding<F extends string> {
  values: Record<F, string>;
  set: (field: F) => (event: { target: { value: string } }) => void;
  err: (field: string) => string | undefined;
}

export function useRecordForm<F extends string>(valuesOf: () => Record<F, string>) {
  const [initial, setInitial] = useState(valuesOf);
  const [values, setValues] = useState(initial);
  const [tagsText, setTagsText] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});

  /** Typing in a field takes its error away. */
  const clearError = (field: string) => {
    if (!errors[field]) return;
    setErrors((current) => {
      const next = { ...current };
      delete next[field];
      return next;
    });
  };
  const set = (field: F) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    clearError(field);
  };
  const err = (field: string) => errors[field];

  /**
   * Shows the errors that stop the body being sent, or sends it, focusing the first field in
   * error either way. Resolves with the save's result, or null when nothing was saved.
   */
  async function submit<Body, Result>(
    form: HTMLFormElement,
    built: { body: Body } | { errors: FieldErrors },
    save: (body: Body) => Promise<Result>,
  ): Promise<Result | null> {
    if ("errors" in built) {
      setErrors(built.errors);
      focusFirstError(form, built.errors);
      return null;
    }
    setErrors({});
    try {
      return await save(built.body);
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      setErrors(fieldErrors);
      focusFirstError(form, fieldErrors);
      return null;
    }
  }

  /** After a save: the saved values are the new starting point, and the typed tags are in. */
  const reset = (saved: Record<F, string>) => {
    setInitial(saved);
    setValues(saved);
    setTagsText("");
  };

  /** Whether any of `fields` differs from its starting value, or tags are typed. */
  const isDirty = (fields: readonly F[]) => isFormDirty(fields, values, initial, tagsText);

  const binding: FormBinding<F> = { values, set, err };
  /** The tags input's value, change and error, for TagsField. */
  const tags = { value: tagsText, onChange: setTagsText, error: errors.tags };
  return { initial, values, tagsText, errors, set, err, clearError, submit, reset, isDirty, binding, tags };
}

/**
 * The form-level message: the overall error of a refused save, and any error of a field the form
 * does not show (so none is lost). `children` is shown when every error has its field.
 */
export function FormErrorNotice({
  errors,
  fields,
  children,
}: {
  errors: FieldErrors;
  /** The fields the form shows. */
  fields: readonly string[];
  children?: React.ReactNode;
}) {
  const unplaced = unplacedErrors(errors, fields);
  if (!errors[""] && unplaced.length === 0) return null;
  return (
    <Notice tone="danger" title={errors[""] ?? "Please check the form"}>
      {unplaced.length > 0 ? (
        <ul className="list-disc pl-5">
          {unplaced.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : (
        (children ?? null)
      )}
    </Notice>
  );
}

/** A titled group of fields: two columns from the small breakpoint up, unless `className` says otherwise. */
export function FormSection({
  legend,
  className = "grid gap-4 sm:grid-cols-2",
  children,
}: {
  legend: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <fieldset className={className}>
      <legend className="mb-2 text-sm font-semibold text-slate-900">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** Email and phone, side by side. */
export function EmailPhoneFields({ form }: { form: FormBinding<"email" | "phone"> }) {
  return (
    <>
      <Field label="Email" error={form.err("email")}>
        <Input
          name="email"
          maxLength={SHORT_TEXT_MAX}
          type="email"
          value={form.values.email}
          onChange={form.set("email")}
          autoComplete="off"
        />
      </Field>
      <Field label="Phone" error={form.err("phone")}>
        <Input
          name="phone"
          maxLength={SHORT_TEXT_MAX}
          type="tel"
          value={form.values.phone}
          onChange={form.set("phone")}
          autoComplete="off"
        />
      </Field>
    </>
  );
}

export const ADDRESS_PARTS = ["street1", "street2", "city", "state", "zip", "country"] as const;
export type AddressPart = (typeof ADDRESS_PARTS)[number];

const ADDRESS_LABELS: Record<AddressPart, string> = {
  street1: "Street",
  street2: "Street line 2",
  city: "City",
  state: "State",
  zip: "ZIP",
  country: "Country",
};

/** The `<prefix>_<part>` names of an address's fields, e.g. property_street1 … property_country. */
export function addressFieldNames<P extends string>(prefix: P) {
  return ADDRESS_PARTS.map((part) => `${prefix}_${part}` as const);
}

/** The six lines of an address (fields `<prefix>_street1` …), for a two-column section. */
export function AddressFields<P extends string>({
  form,
  prefix,
}: {
  form: FormBinding<`${P}_${AddressPart}`>;
  prefix: P;
}) {
  return ADDRESS_PARTS.map((part) => {
    const field = `${prefix}_${part}` as const;
    return (
      <Field
        key={field}
        label={ADDRESS_LABELS[part]}
        error={form.err(field)}
        className={part.startsWith("street") ? "col-span-2 sm:col-span-1" : undefined}
      >
        <Input
          name={field}
          value={form.values[field]}
          onChange={form.set(field)}
          maxLength={SHORT_TEXT_MAX}
        />
      </Field>
    );
  });
}

/** A free-text field with suggestions (a datalist): any other value is kept as typed. */
export function SuggestField<F extends string>({
  form,
  name,
  label,
  suggestions,
}: {
  form: FormBinding<F>;
  name: F;
  label: string;
  suggestions: readonly (string | SelectOption)[];
}) {
  const listId = useId();
  return (
    <>
      <Field label={label} error={form.err(name)}>
        <Input
          name={name}
          value={form.values[name]}
          onChange={form.set(name)}
          list={listId}
          maxLength={SHORT_TEXT_MAX}
        />
      </Field>
      <datalist id={listId}>
        {suggestions.map((s) =>
          typeof s === "string" ? (
            <option key={s} value={s} />
          ) : (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ),
        )}
      </datalist>
    </>
  );
}

/**
 * Tags to add. A new record takes its first tags; an edit shows the current tags and adds the
 * typed ones to them (the API merges tags, it never drops one).
 */
export function TagsField({
  current,
  value,
  onChange,
  error,
  example,
}: {
  /** The record's tags when editing; absent for a new record. */
  current: readonly string[] | undefined;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  /** Example tags for the new record's hint, e.g. "spring-promo, referral". */
  example: string;
}) {
  const isEdit = current !== undefined;
  return (
    <div className="space-y-2 sm:col-span-2">
      {isEdit ? (
        <div className="flex flex-wrap items-center gap-1.5 text-sm">
          <span className="font-medium text-slate-800">Current tags:</span>
          <TagList tags={current} label="Current tags" className="max-w-none" />
        </div>
      ) : null}
      <Field
        label={isEdit ? "Add tags" : "Tags"}
        error={error}
        hint={
          isEdit
            ? "Comma-separated. New tags are added to the current ones; existing tags are kept."
            : `Comma-separated, e.g. ${example}.`
        }
      >
        <Input name="tags" value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" />
      </Field>
    </div>
  );
}

export function NotesField({ form }: { form: FormBinding<"notes"> }) {
  return (
    <Field label="Notes" error={form.err("notes")} className="sm:col-span-2">
      <Textarea
        name="notes"
        value={form.values.notes}
        onChange={form.set("notes")}
        rows={4}
        maxLength={NOTES_MAX}
      />
    </Field>
  );
}

/** Cancel (in a dialog) and the submit button; an edit with nothing changed cannot be saved. */
export function FormActions({
  onCancel,
  saving,
  disabled,
  submitLabel,
}: {
  onCancel?: () => void;
  saving: boolean;
  disabled: boolean;
  submitLabel: string;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
      {onCancel ? (
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      ) : null}
      <Button type="submit" loading={saving} disabled={disabled}>
        {submitLabel}
      </Button>
    </div>
  );
}

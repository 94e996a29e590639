"use client";

import { TagList } from "@/components/data-table/cells";
import { type FormEvent, useId, useState } from "react";
import { Button, Checkbox, Field, Input, Notice, Select, Textarea } from "@/components/ui";
import {
  type FieldErrors,
  focusFirstError,
  serverFieldErrors,
  unplacedErrors,
  zodFieldErrors,
} from "@/components/leads/form-support";
import { parseTagList } from "@/lib/domain/normalize";
import {
  type CustomerRecord,
  type CustomerSaveResult,
  type CustomerUpsertBody,
  useSaveCustomer,
} from "@/lib/query/customers";
import { upsertCustomerBodySchema } from "@/lib/schemas/customers";
import { CUSTOMER_SOURCES, SERVICE_FREQUENCIES, STATUS_OPTIONS } from "./customer-options";
import { SERVICE_TYPES } from "@/components/leads/lead-options";

/**
 * Create-or-update form of a customer, posting to POST /api/customers (the edit sends the id),
 * checked with the API's own zod schema first. "Billing same as property" hides the billing
 * fields: the API then copies the property address into the billing address.
 *
 * New: only filled fields are sent. Edit: only changed fields (absent fields are kept by the
 * API; an emptied field is sent as "" and stored as null). Tags are only added (merged).
 */

const ADDRESS_PARTS = ["street1", "street2", "city", "state", "zip", "country"] as const;
const PROPERTY_FIELDS = ADDRESS_PARTS.map((p) => `property_${p}` as const);
const BILLING_FIELDS = ADDRESS_PARTS.map((p) => `billing_${p}` as const);
const TEXT_FIELDS = [
  "first_name",
  "last_name",
  "company_name",
  "email",
  "phone",
  ...PROPERTY_FIELDS,
  ...BILLING_FIELDS,
  "service_frequency",
  "service_type",
  "status",
  "source",
  "notes",
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Values = Record<TextField, string>;
const FORM_FIELDS: readonly string[] = [...TEXT_FIELDS, "tags", "billing_same_as_property"];

const ADDRESS_LABELS: Record<(typeof ADDRESS_PARTS)[number], string> = {
  street1: "Street",
  street2: "Street line 2",
  city: "City",
  state: "State",
  zip: "ZIP",
  country: "Country",
};

function valuesOf(customer?: CustomerRecord): Values {
  const values = {} as Values;
  for (const field of TEXT_FIELDS) values[field] = "";
  if (!customer) {
    values.status = "active";
    return values;
  }
  values.first_name = customer.first_name ?? "";
  values.last_name = customer.last_name ?? "";
  values.company_name = customer.company_name ?? "";
  values.email = customer.email ?? "";
  values.phone = customer.phone ?? "";
  values.source = customer.source ?? "";
  values.notes = customer.notes ?? "";
  values.status = customer.status;
  values.service_frequency = customer.service_frequency ?? "";
  values.service_type = customer.service_type ?? "";
  for (const part of ADDRESS_PARTS) {
    values[`property_${part}`] = customer.address[part] ?? "";
    values[`billing_${part}`] = customer[`billing_${part}`] ?? "";
  }
  return values;
}

function buildBody(
  values: Values,
  initial: Values,
  same: boolean,
  initialSame: boolean,
  tagsText: string,
  id: string | undefined,
): { body: CustomerUpsertBody } | { errors: FieldErrors } {
  const body: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  if (id) body.id = id;
  for (const field of TEXT_FIELDS) {
    // With "same as property" the API copies the property address; typed billing lines are moot.
    if (same && field.startsWith("billing_")) continue;
    const value = values[field];
    const changed = id ? value !== initial[field] : value.trim() !== "";
    if (changed) body[field] = value;
  }
  if (id ? same !== initialSame : same) body.billing_same_as_property = same;
  const tags = parseTagList(tagsText);
  if (tags.length > 0) body.tags = tags;
  if (
    !id &&
    !["first_name", "last_name", "company_name", "email", "phone"].some((f) => values[f as TextField].trim())
  ) {
    errors.first_name = "Give at least a name (first, last or company), an email or a phone";
  }
  const parsed = upsertCustomerBodySchema.safeParse(body);
  if (!parsed.success) Object.assign(errors, zodFieldErrors(parsed.error), errors);
  if (Object.keys(errors).length > 0) return { errors };
  return { body: body as CustomerUpsertBody };
}

export interface CustomerFormProps {
  /** The customer being edited; absent for "New customer". */
  customer?: CustomerRecord;
  onSaved?: (result: CustomerSaveResult) => void;
  onCancel?: () => void;
}

export function CustomerForm({ customer, onSaved, onCancel }: CustomerFormProps) {
  const formId = useId();
  const isEdit = Boolean(customer);
  // get-by-id may not say how billing is stored; then the billing lines start empty and are
  // only sent when typed (an empty, untouched field keeps what is on file).
  const billingKnown = !customer || customer.billing_same_as_property !== undefined;
  const [initial, setInitial] = useState(() => valuesOf(customer));
  const [initialSame, setInitialSame] = useState(customer?.billing_same_as_property ?? false);
  const [values, setValues] = useState(initial);
  const [same, setSame] = useState(initialSame);
  const [tagsText, setTagsText] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveCustomer();

  const clearError = (field: string) => {
    if (!errors[field]) return;
    setErrors((current) => {
      const next = { ...current };
      delete next[field];
      return next;
    });
  };
  const set = (field: TextField) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    clearError(field);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const built = buildBody(values, initial, same, initialSame, tagsText, customer?.id);
    if ("errors" in built) {
      setErrors(built.errors);
      focusFirstError(form, built.errors);
      return;
    }
    setErrors({});
    try {
      const result = await save.mutateAsync(built.body);
      const saved = result.customer;
      const next = { ...values };
      for (const field of TEXT_FIELDS) {
        const value = (saved as Record<string, unknown>)[field];
        next[field] = typeof value === "string" ? value : "";
      }
      setInitial(next);
      setValues(next);
      setInitialSame(saved.billing_same_as_property);
      setSame(saved.billing_same_as_property);
      setTagsText("");
      onSaved?.(result);
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      setErrors(fieldErrors);
      focusFirstError(form, fieldErrors);
    }
  }

  const err = (field: string) => errors[field];
  const unplaced = unplacedErrors(errors, FORM_FIELDS);
  const dirty =
    TEXT_FIELDS.some((f) => values[f] !== initial[f]) ||
    same !== initialSame ||
    parseTagList(tagsText).length > 0;

  const addressFields = (kind: "property" | "billing", disabled = false) =>
    ADDRESS_PARTS.map((part) => {
      const field = `${kind}_${part}` as TextField;
      return (
        <Field
          key={field}
          label={ADDRESS_LABELS[part]}
          error={err(field)}
          className={part.startsWith("street") ? "col-span-2 sm:col-span-1" : undefined}
        >
          <Input name={field} value={values[field]} onChange={set(field)} disabled={disabled} />
        </Field>
      );
    });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={isEdit ? "Edit customer" : "New customer"}
      className="space-y-6"
    >
      {errors[""] || unplaced.length > 0 ? (
        <Notice tone="danger" title={errors[""] ?? "Please check the form"}>
          {unplaced.length > 0 ? (
            <ul className="list-disc pl-5">
              {unplaced.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : null}
        </Notice>
      ) : null}

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Contact</legend>
        <Field label="First name" error={err("first_name")}>
          <Input
            name="first_name"
            value={values.first_name}
            onChange={set("first_name")}
            autoComplete="off"
            // In the "New customer" dialog, typing starts in the first field.
            autoFocus={!isEdit}
          />
        </Field>
        <Field label="Last name" error={err("last_name")}>
          <Input name="last_name" value={values.last_name} onChange={set("last_name")} autoComplete="off" />
        </Field>
        <Field label="Company name" error={err("company_name")} className="sm:col-span-2">
          <Input
            name="company_name"
            value={values.company_name}
            onChange={set("company_name")}
            autoComplete="off"
          />
        </Field>
        <Field label="Email" error={err("email")}>
          <Input name="email" type="email" value={values.email} onChange={set("email")} autoComplete="off" />
        </Field>
        <Field label="Phone" error={err("phone")}>
          <Input name="phone" type="tel" value={values.phone} onChange={set("phone")} autoComplete="off" />
        </Field>
      </fieldset>

      <fieldset className="grid grid-cols-2 gap-4">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Property address</legend>
        {addressFields("property")}
      </fieldset>

      <fieldset className="grid grid-cols-2 gap-4">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Billing address</legend>
        <Checkbox
          className="col-span-2"
          name="billing_same_as_property"
          label="Billing same as property"
          description={same ? "Invoices go to the property address above." : undefined}
          checked={same}
          onChange={(e) => {
            setSame(e.target.checked);
            clearError("billing_same_as_property");
          }}
        />
        {same ? null : (
          <>
            {!billingKnown ? (
              <p className="col-span-2 text-xs text-slate-500">
                The billing address on file is not shown here; fields left empty keep it.
              </p>
            ) : null}
            {addressFields("billing")}
          </>
        )}
      </fieldset>

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Service</legend>
        <Field label="Status" error={err("status")}>
          <Select name="status" value={values.status} onChange={set("status")} options={STATUS_OPTIONS} />
        </Field>
        <Field label="Service frequency" error={err("service_frequency")}>
          <Input
            name="service_frequency"
            value={values.service_frequency}
            onChange={set("service_frequency")}
            list={`${formId}-frequencies`}
          />
        </Field>
        <Field label="Service type" error={err("service_type")}>
          <Input
            name="service_type"
            value={values.service_type}
            onChange={set("service_type")}
            list={`${formId}-services`}
          />
        </Field>
        <Field label="Source" error={err("source")}>
          <Input name="source" value={values.source} onChange={set("source")} list={`${formId}-sources`} />
        </Field>
        <div className="space-y-2 sm:col-span-2">
          {isEdit ? (
            <div className="flex flex-wrap items-center gap-1.5 text-sm">
              <span className="font-medium text-slate-800">Current tags:</span>
              <TagList tags={customer?.tags ?? []} label="Current tags" className="max-w-none" />
            </div>
          ) : null}
          <Field
            label={isEdit ? "Add tags" : "Tags"}
            error={err("tags")}
            hint={
              isEdit
                ? "Comma-separated. New tags are added to the current ones; existing tags are kept."
                : "Comma-separated, e.g. residential, quarterly."
            }
          >
            <Input
              name="tags"
              value={tagsText}
              onChange={(e) => setTagsText(e.target.value)}
              autoComplete="off"
            />
          </Field>
        </div>
        <Field label="Notes" error={err("notes")} className="sm:col-span-2">
          <Textarea name="notes" value={values.notes} onChange={set("notes")} rows={4} maxLength={10000} />
        </Field>
      </fieldset>

      <datalist id={`${formId}-frequencies`}>
        {SERVICE_FREQUENCIES.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <datalist id={`${formId}-services`}>
        {SERVICE_TYPES.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <datalist id={`${formId}-sources`}>
        {CUSTOMER_SOURCES.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>

      <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" loading={save.isPending} disabled={isEdit && !dirty}>
          {isEdit ? "Save changes" : "Save customer"}
        </Button>
      </div>
    </form>
  );
}

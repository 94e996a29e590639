"use client";

import { type FormEvent, useState } from "react";
import { SERVICE_TYPES } from "@/components/leads/lead-options";
import { type FieldErrors, checkedBody, fieldsToSend } from "@/components/records/form-support";
import {
  ADDRESS_PARTS,
  AddressFields,
  EmailPhoneFields,
  FormActions,
  FormErrorNotice,
  FormSection,
  NotesField,
  SuggestField,
  TagsField,
  addressFieldNames,
  useRecordForm,
} from "@/components/records/record-form";
import { Checkbox, Field, Input, Select, useUnsavedChangesGuard } from "@/components/ui";
import {
  type CustomerRecord,
  type CustomerSaveResult,
  type CustomerUpsertBody,
  dryRunCustomer,
  useSaveCustomer,
} from "@/lib/query/customers";
import { formatChangeValue } from "@/components/records/activity-changes";
import { useSafeSave } from "@/components/records/safe-save";
import type { SaveOutcomeProps } from "@/components/records/save-outcome";
import { upsertCustomerBodySchema } from "@/lib/schemas/customers";
import { CUSTOMER_CHANGE_FIELDS, customerView } from "./customer-changes";
import { customerName } from "@/lib/values/customer-name";
import { CUSTOMER_SOURCES, SERVICE_FREQUENCIES, STATUS_OPTIONS } from "./customer-options";

// A customer's create-or-update form, checked with the API's own zod schema. New sends filled
// fields, edit only changed ones ("" clears); "Billing same as property" lets the API copy it.

const PROPERTY_FIELDS = addressFieldNames("property");
// A customer's fields hold no stage or owner ids to name.
const PLAIN_NAMES = { stageLabel: (key: string) => key, userName: (id: string) => id };
const BILLING_FIELDS = addressFieldNames("billing");
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
  converting = false,
): { body: CustomerUpsertBody } | { errors: FieldErrors } {
  const body: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  if (id) body.id = id;
  // A conversion sends what differs from the lead's values (the API carries the rest over).
  for (const field of fieldsToSend(TEXT_FIELDS, values, initial, Boolean(id) || converting)) {
    // With "same as property" the API copies the property address; typed billing lines are moot.
    if (same && field.startsWith("billing_")) continue;
    body[field] = values[field];
  }
  if (id ? same !== initialSame : same) body.billing_same_as_property = same;
  if (
    !id &&
    !converting &&
    !["first_name", "last_name", "company_name", "email", "phone"].some((f) => values[f as TextField].trim())
  ) {
    errors.first_name = "Give at least a name (first, last or company), an email or a phone";
  }
  return checkedBody<CustomerUpsertBody>(upsertCustomerBodySchema, body, tagsText, errors);
}

/** A save's result as the outcome notice shows it. */
export function customerSaveOutcome(result: CustomerSaveResult): SaveOutcomeProps["result"] {
  return {
    ...result,
    id: result.customer.id,
    name: customerName(result.customer),
    tags: result.customer.tags,
  };
}

/** "Convert to customer": a new customer's form starting from the lead's values, with its own save. */
export interface CustomerFormConversion {
  values: Partial<Values>;
  /** The lead's tags: carried over, shown as the current ones; typed tags are added to them. */
  tags: readonly string[];
  /** Sends the body (fields that differ from the lead's); resolves once done or gone back. */
  save: (body: CustomerUpsertBody) => Promise<unknown>;
  submitLabel: string;
}

export interface CustomerFormProps {
  /** The customer being edited; absent for "New customer". */
  customer?: CustomerRecord;
  onSaved?: (result: CustomerSaveResult) => void;
  onCancel?: () => void;
  convert?: CustomerFormConversion;
}

export function CustomerForm({ customer, onSaved, onCancel, convert }: CustomerFormProps) {
  const isEdit = Boolean(customer);
  // get-by-id may not say how billing is stored; then the billing lines start empty and are
  // only sent when typed (an empty, untouched field keeps what is on file).
  const billingKnown = !customer || customer.billing_same_as_property !== undefined;
  const form = useRecordForm(() => ({ ...valuesOf(customer), ...convert?.values }));
  const { values, initial, tagsText, errors, set, err, binding } = form;
  const [initialSame, setInitialSame] = useState(
    // A customer made from a lead has only the lead's address: billed there unless told otherwise.
    customer?.billing_same_as_property ?? Boolean(convert),
  );
  const [same, setSame] = useState(initialSame);
  const save = useSaveCustomer();
  const [converting, setConverting] = useState(false);
  // New: a dry run first, and a choice when it matches an existing customer; updates offer Undo.
  const safe = useSafeSave<CustomerUpsertBody, CustomerSaveResult>({
    kind: "customer",
    fields: CUSTOMER_CHANGE_FIELDS,
    viewOf: customerView,
    nameOf: (record) => customerName(record),
    dryRun: dryRunCustomer,
    save: save.mutateAsync,
    recordOf: (result) => result.customer,
    editing: customer,
    onUndone: (result) => showSaved(result.customer),
    // The match dialog shows values as the customer's page does: labels and local dates.
    formatValue: (key, value) => formatChangeValue(key, value, PLAIN_NAMES),
  });

  /** The saved customer is the form's new starting point. */
  function showSaved(saved: CustomerSaveResult["customer"]) {
    const next = { ...values };
    for (const field of TEXT_FIELDS) {
      const value = (saved as Record<string, unknown>)[field];
      next[field] = typeof value === "string" ? value : "";
    }
    form.reset(next);
    setInitialSame(saved.billing_same_as_property);
    setSame(saved.billing_same_as_property);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const built = buildBody(values, initial, same, initialSame, tagsText, customer?.id, Boolean(convert));
    if (convert) {
      if ("body" in built && built.body.tags)
        built.body.tags = [...new Set([...convert.tags, ...built.body.tags])];
      setConverting(true);
      await form.submit(event.currentTarget, built, convert.save).finally(() => setConverting(false));
      return;
    }
    const result = await form.submit(event.currentTarget, built, safe.save);
    if (!result) return;
    showSaved(result.customer);
    onSaved?.(result);
  }

  const dirty = form.isDirty(TEXT_FIELDS) || same !== initialSame;
  // Esc, Cancel or a link with unsaved changes asks first.
  const { bindForm, confirmDiscard, discardDialog } = useUnsavedChangesGuard(dirty);

  return (
    <>
      <form
        ref={bindForm}
        onSubmit={onSubmit}
        noValidate
        aria-label={isEdit ? "Edit customer" : "New customer"}
        className="space-y-6"
      >
        <FormErrorNotice errors={errors} fields={FORM_FIELDS} />

        <FormSection legend="Contact">
          <Field label="First name" error={err("first_name")}>
            <Input
              name="first_name"
              value={values.first_name}
              onChange={set("first_name")}
              autoComplete="off"
              // In the "New customer" dialog, typing starts in the first field.
              data-autofocus={!isEdit || undefined}
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
          <EmailPhoneFields form={binding} />
        </FormSection>

        <FormSection legend="Property address" className="grid grid-cols-2 gap-4">
          <AddressFields form={binding} prefix="property" />
        </FormSection>

        <FormSection legend="Billing address" className="grid grid-cols-2 gap-4">
          <Checkbox
            className="col-span-2"
            name="billing_same_as_property"
            label="Billing same as property"
            description={same ? "Invoices go to the property address above." : undefined}
            checked={same}
            onChange={(e) => {
              setSame(e.target.checked);
              form.clearError("billing_same_as_property");
            }}
          />
          {same ? null : (
            <>
              {!billingKnown ? (
                <p className="col-span-2 text-xs text-slate-500">
                  The billing address on file is not shown here; fields left empty keep it.
                </p>
              ) : null}
              <AddressFields form={binding} prefix="billing" />
            </>
          )}
        </FormSection>

        <FormSection legend="Service">
          <Field label="Status" error={err("status")}>
            <Select name="status" value={values.status} onChange={set("status")} options={STATUS_OPTIONS} />
          </Field>
          <SuggestField
            form={binding}
            name="service_frequency"
            label="Service frequency"
            suggestions={SERVICE_FREQUENCIES}
          />
          <SuggestField form={binding} name="service_type" label="Service type" suggestions={SERVICE_TYPES} />
          <SuggestField form={binding} name="source" label="Source" suggestions={CUSTOMER_SOURCES} />
          <TagsField
            {...form.tags}
            current={customer?.tags ?? convert?.tags}
            example="residential, quarterly"
          />
          <NotesField form={binding} />
        </FormSection>

        <FormActions
          onCancel={onCancel && (() => confirmDiscard(onCancel))}
          saving={save.isPending || safe.checking || converting}
          disabled={isEdit && !dirty}
          submitLabel={convert?.submitLabel ?? (isEdit ? "Save changes" : "Save customer")}
        />
        {discardDialog}
      </form>
      {/* Outside the form: Enter in the match dialog must not submit the form again. */}
      {safe.dialog}
    </>
  );
}

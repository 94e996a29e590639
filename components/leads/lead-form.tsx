"use client";

import { TagList } from "@/components/data-table/cells";
import { type FormEvent, useId, useState } from "react";
import { Button, Field, Input, Notice, Select, Textarea } from "@/components/ui";
import { parseTagList } from "@/lib/domain/normalize";
import { type Lead, type LeadSaveResult, type LeadUpsertBody, useSaveLead } from "@/lib/query/leads";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import {
  type FieldErrors,
  dateInputToIso,
  focusFirstError,
  isoToDateInput,
  serverFieldErrors,
  unplacedErrors,
  zodFieldErrors,
} from "./form-support";
import { LEAD_SOURCES, LEAD_STAGES, PRIORITY_OPTIONS, SERVICE_TYPES } from "./lead-options";

/**
 * Create-or-update form of a lead. Both "New lead" and the edit form on a lead's page post to
 * POST /api/leads (the edit sends the id). The body is checked with the API's own zod schema
 * before it is sent, and the API's `details` land next to their fields when it refuses.
 *
 * New: only filled fields are sent. Edit: only changed fields are sent (the API keeps absent
 * fields; an emptied field is sent as "" which the API stores as null). Tags are only ever
 * added — the API merges them — so the edit form shows the current tags and takes new ones.
 */

const TEXT_FIELDS = [
  "name",
  "email",
  "phone",
  "address_street1",
  "address_street2",
  "address_city",
  "address_state",
  "address_zip",
  "address_country",
  "priority",
  "projected_value",
  "service_type",
  "source",
  "stage",
  "notes",
  "follow_up_date",
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Values = Record<TextField, string>;
const FORM_FIELDS: readonly string[] = [...TEXT_FIELDS, "tags"];

function valuesOf(lead?: Lead): Values {
  return {
    name: lead?.name ?? "",
    email: lead?.email ?? "",
    phone: lead?.phone ?? "",
    address_street1: lead?.property_street1 ?? "",
    address_street2: lead?.property_street2 ?? "",
    address_city: lead?.property_city ?? "",
    address_state: lead?.property_state ?? "",
    address_zip: lead?.property_zip ?? "",
    address_country: lead?.property_country ?? "",
    priority: lead?.priority ?? "",
    projected_value: lead?.projected_value == null ? "" : String(lead.projected_value),
    service_type: lead?.service_type ?? "",
    source: lead?.lead_source ?? "",
    stage: lead?.stage ?? "",
    notes: lead?.notes ?? "",
    follow_up_date: isoToDateInput(lead?.follow_up_date),
  };
}

/** The request body, or the client-side errors that stop it being sent. */
function buildBody(
  values: Values,
  initial: Values,
  tagsText: string,
  id: string | undefined,
): { body: LeadUpsertBody } | { errors: FieldErrors } {
  const body: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  if (id) body.id = id;
  for (const field of TEXT_FIELDS) {
    const value = values[field];
    const changed = id ? value !== initial[field] : value.trim() !== "";
    if (!changed) continue;
    if (field === "projected_value") {
      const amount = value.trim() === "" ? null : Number(value);
      if (amount !== null && !Number.isFinite(amount)) errors[field] = "must be a number";
      body[field] = amount;
    } else if (field === "priority") {
      body[field] = value === "" ? null : value;
    } else if (field === "follow_up_date") {
      body[field] = value === "" ? "" : dateInputToIso(value);
    } else {
      body[field] = value;
    }
  }
  const tags = parseTagList(tagsText);
  if (tags.length > 0) body.tags = tags;
  if (!id && !values.name.trim() && !values.email.trim() && !values.phone.trim()) {
    errors.name = "Give at least a name, an email or a phone";
  }
  const parsed = upsertLeadBodySchema.safeParse(body);
  if (!parsed.success) Object.assign(errors, zodFieldErrors(parsed.error), errors);
  if (Object.keys(errors).length > 0) return { errors };
  // Send what the user typed (the API applies the same schema and its transforms itself).
  return { body: body as LeadUpsertBody };
}

export interface LeadFormProps {
  /** The lead being edited; absent for "New lead". */
  lead?: Lead;
  onSaved?: (result: LeadSaveResult) => void;
  onCancel?: () => void;
}

export function LeadForm({ lead, onSaved, onCancel }: LeadFormProps) {
  const formId = useId();
  const [initial, setInitial] = useState(() => valuesOf(lead));
  const [values, setValues] = useState(initial);
  const [tagsText, setTagsText] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveLead();
  const isEdit = Boolean(lead);

  const set = (field: TextField) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) {
      setErrors((current) => {
        const next = { ...current };
        delete next[field];
        return next;
      });
    }
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const built = buildBody(values, initial, tagsText, lead?.id);
    if ("errors" in built) {
      setErrors(built.errors);
      focusFirstError(event.currentTarget, built.errors);
      return;
    }
    setErrors({});
    try {
      const result = await save.mutateAsync(built.body);
      const saved = valuesOf(result.lead);
      setInitial(saved);
      setValues(saved);
      setTagsText("");
      onSaved?.(result);
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      setErrors(fieldErrors);
      focusFirstError(event.currentTarget, fieldErrors);
    }
  }

  const err = (field: string) => errors[field];
  const unplaced = unplacedErrors(errors, FORM_FIELDS);
  const dirty = TEXT_FIELDS.some((f) => values[f] !== initial[f]) || parseTagList(tagsText).length > 0;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={isEdit ? "Edit lead" : "New lead"} className="space-y-6">
      {errors[""] || unplaced.length > 0 ? (
        <Notice tone="danger" title={errors[""] ?? "Please check the form"}>
          {unplaced.length > 0 ? (
            <ul className="list-disc pl-5">
              {unplaced.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : Object.keys(errors).length > 1 ? (
            "The highlighted fields need attention."
          ) : null}
        </Notice>
      ) : null}

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Contact</legend>
        <Field label="Name" error={err("name")} className="sm:col-span-2">
          <Input
            name="name"
            value={values.name}
            onChange={set("name")}
            autoComplete="off"
            maxLength={255}
            // In the "New lead" dialog, typing starts in the first field.
            autoFocus={!isEdit}
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
        <Field label="Street" error={err("address_street1")} className="col-span-2 sm:col-span-1">
          <Input name="address_street1" value={values.address_street1} onChange={set("address_street1")} />
        </Field>
        <Field label="Street line 2" error={err("address_street2")} className="col-span-2 sm:col-span-1">
          <Input name="address_street2" value={values.address_street2} onChange={set("address_street2")} />
        </Field>
        <Field label="City" error={err("address_city")}>
          <Input name="address_city" value={values.address_city} onChange={set("address_city")} />
        </Field>
        <Field label="State" error={err("address_state")}>
          <Input name="address_state" value={values.address_state} onChange={set("address_state")} />
        </Field>
        <Field label="ZIP" error={err("address_zip")}>
          <Input name="address_zip" value={values.address_zip} onChange={set("address_zip")} />
        </Field>
        <Field label="Country" error={err("address_country")}>
          <Input name="address_country" value={values.address_country} onChange={set("address_country")} />
        </Field>
      </fieldset>

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Pipeline</legend>
        <Field label="Stage" error={err("stage")}>
          <Input name="stage" value={values.stage} onChange={set("stage")} list={`${formId}-stages`} />
        </Field>
        <Field label="Priority" error={err("priority")}>
          <Select
            name="priority"
            value={values.priority}
            onChange={set("priority")}
            placeholder="None"
            options={PRIORITY_OPTIONS}
          />
        </Field>
        <Field label="Projected value ($)" error={err("projected_value")}>
          <Input
            name="projected_value"
            type="number"
            inputMode="decimal"
            min={0}
            step="0.01"
            value={values.projected_value}
            onChange={set("projected_value")}
          />
        </Field>
        <Field label="Follow-up date" error={err("follow_up_date")}>
          <Input
            name="follow_up_date"
            type="date"
            value={values.follow_up_date}
            onChange={set("follow_up_date")}
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
              <TagList tags={lead?.tags ?? []} label="Current tags" className="max-w-none" />
            </div>
          ) : null}
          <Field
            label={isEdit ? "Add tags" : "Tags"}
            error={err("tags")}
            hint={
              isEdit
                ? "Comma-separated. New tags are added to the current ones; existing tags are kept."
                : "Comma-separated, e.g. spring-promo, referral."
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

      <datalist id={`${formId}-stages`}>
        {LEAD_STAGES.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </datalist>
      <datalist id={`${formId}-services`}>
        {SERVICE_TYPES.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <datalist id={`${formId}-sources`}>
        {LEAD_SOURCES.map((s) => (
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
          {isEdit ? "Save changes" : "Save lead"}
        </Button>
      </div>
    </form>
  );
}

"use client";

import type { FormEvent } from "react";
import {
  type FieldErrors,
  checkedBody,
  dateInputToIso,
  fieldsToSend,
  isoToDateInput,
} from "@/components/records/form-support";
import {
  AddressFields,
  EmailPhoneFields,
  FormActions,
  FormErrorNotice,
  FormSection,
  NotesField,
  SuggestField,
  TagsField,
  useRecordForm,
} from "@/components/records/record-form";
import { formatChangeValue } from "@/components/records/activity-changes";
import { useLeadValueNames } from "@/components/records/activity-timeline";
import { useSafeSave } from "@/components/records/safe-save";
import type { SaveOutcomeProps } from "@/components/records/save-outcome";
import { Field, Input, Select, useUnsavedChangesGuard } from "@/components/ui";
import { LoadingBlock } from "@/components/ui/spinner";
import {
  type Lead,
  type LeadSaveResult,
  type LeadUpsertBody,
  dryRunLead,
  useSaveLead,
} from "@/lib/query/leads";
import { usePipeline } from "@/lib/query/pipeline";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import { DEFAULT_PIPELINE, findStage, type Stage } from "@/lib/schemas/pipeline";
import { LEAD_ASK_FIRST, LEAD_CHANGE_FIELDS } from "./lead-changes";
import { OwnerField } from "./lead-owner";
import { LEAD_SOURCES, PRIORITY_OPTIONS, SERVICE_TYPES } from "./lead-options";

// A lead's create-or-update form, checked with the API's own zod schema. New sends filled fields,
// edit only changed ones ("" clears); tags are only added, since the API merges them.

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
  "assigned_to",
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Values = Record<TextField, string>;
const FORM_FIELDS: readonly string[] = [...TEXT_FIELDS, "tags"];

/**
 * The form's values. The stage is picked from the pipeline: a stored value naming a stage (its key,
 * or its label in any case) shows as that stage; a new lead starts in the first stage.
 */
function valuesOf(pipeline: readonly Stage[], lead?: Lead): Values {
  const stage = lead ? (lead.stage && (findStage(pipeline, lead.stage)?.key ?? lead.stage)) || "" : "";
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
    stage: lead ? stage : (pipeline[0]?.key ?? ""),
    notes: lead?.notes ?? "",
    follow_up_date: isoToDateInput(lead?.follow_up_date),
    assigned_to: lead?.assigned_to ?? "",
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
  for (const field of fieldsToSend(TEXT_FIELDS, values, initial, Boolean(id))) {
    // A new lead's untouched first stage goes as a creation default (useSafeSave's createDefaults).
    if (!id && field === "stage" && values.stage === initial.stage) continue;
    const value = values[field];
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
  if (!id && !values.name.trim() && !values.email.trim() && !values.phone.trim()) {
    errors.name = "Give at least a name, an email or a phone";
  }
  return checkedBody<LeadUpsertBody>(upsertLeadBodySchema, body, tagsText, errors);
}

/** A save's result as the outcome notice shows it. */
export function leadSaveOutcome(result: LeadSaveResult): SaveOutcomeProps["result"] {
  return { ...result, id: result.lead.id, name: result.lead.name, tags: result.lead.tags };
}

/** Values a new lead's form starts with (a door on the map gives its address and notes). */
export type LeadPrefill = Partial<Values>;

export interface LeadFormProps {
  /** The lead being edited; absent for "New lead". */
  lead?: Lead;
  /** New lead only: fields filled in advance, sent like typed ones. */
  prefill?: LeadPrefill;
  onSaved?: (result: LeadSaveResult) => void;
  onCancel?: () => void;
}

/** The stage choices: the pipeline's stages, and a stored value outside it kept as it is. */
function stageOptions(pipeline: readonly Stage[], current: string) {
  const options = pipeline.map((s) => ({ value: s.key, label: s.label }));
  if (current && !pipeline.some((s) => s.key === current)) {
    options.push({ value: current, label: `${current} (not in pipeline)` });
  }
  return options;
}

export function LeadForm(props: LeadFormProps) {
  const pipeline = usePipeline();
  if (pipeline.isPending) return <LoadingBlock label="Loading the pipeline" />;
  // Without the pipeline (an error), the default one still offers the usual stages.
  return <LeadFormFields {...props} pipeline={pipeline.data ?? DEFAULT_PIPELINE} />;
}

function LeadFormFields({
  lead,
  prefill,
  onSaved,
  onCancel,
  pipeline,
}: LeadFormProps & { pipeline: readonly Stage[] }) {
  const form = useRecordForm(() => ({ ...valuesOf(pipeline, lead), ...(lead ? {} : prefill) }));
  const { values, initial, tagsText, errors, set, err, binding } = form;
  const save = useSaveLead();
  const isEdit = Boolean(lead);
  const names = useLeadValueNames();
  // New: a dry run first, and a choice when it matches an existing lead; updates offer Undo.
  const safe = useSafeSave<LeadUpsertBody, LeadSaveResult>({
    kind: "lead",
    fields: LEAD_CHANGE_FIELDS,
    viewOf: (record) => record,
    nameOf: (record) => String(record.name ?? ""),
    dryRun: dryRunLead,
    save: save.mutateAsync,
    recordOf: (result) => result.lead,
    editing: lead,
    createDefaults: initial.stage ? { stage: initial.stage } : undefined,
    onUndone: (result) => form.reset(valuesOf(pipeline, result.lead)),
    // The match dialog shows values as the lead's page does: labels, names, local dates.
    formatValue: (key, value) => formatChangeValue(key, value, names),
    askFirst: LEAD_ASK_FIRST,
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const built = buildBody(values, initial, tagsText, lead?.id);
    const result = await form.submit(event.currentTarget, built, safe.save);
    if (!result) return;
    form.reset(valuesOf(pipeline, result.lead));
    onSaved?.(result);
  }

  const dirty = form.isDirty(TEXT_FIELDS);
  // Esc, Cancel or a link with unsaved changes asks first.
  const { bindForm, confirmDiscard, discardDialog } = useUnsavedChangesGuard(dirty);

  return (
    <>
      <form
        ref={bindForm}
        onSubmit={onSubmit}
        noValidate
        aria-label={isEdit ? "Edit lead" : "New lead"}
        className="space-y-6"
      >
        <FormErrorNotice errors={errors} fields={FORM_FIELDS}>
          {Object.keys(errors).length > 1 ? "The highlighted fields need attention." : null}
        </FormErrorNotice>

        <FormSection legend="Contact">
          <Field label="Name" error={err("name")} className="sm:col-span-2">
            <Input
              name="name"
              value={values.name}
              onChange={set("name")}
              autoComplete="off"
              maxLength={255}
              // In the "New lead" dialog, typing starts in the first field.
              data-autofocus={!isEdit || undefined}
            />
          </Field>
          <EmailPhoneFields form={binding} />
        </FormSection>

        <FormSection legend="Property address" className="grid grid-cols-2 gap-4">
          <AddressFields form={binding} prefix="address" />
        </FormSection>

        <FormSection legend="Pipeline">
          <Field label="Stage" error={err("stage")}>
            <Select
              name="stage"
              value={values.stage}
              onChange={set("stage")}
              placeholder="No stage"
              options={stageOptions(pipeline, initial.stage)}
            />
          </Field>
          <OwnerField value={values.assigned_to} onChange={set("assigned_to")} error={err("assigned_to")} />
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
          <SuggestField form={binding} name="service_type" label="Service type" suggestions={SERVICE_TYPES} />
          <SuggestField form={binding} name="source" label="Source" suggestions={LEAD_SOURCES} />
          <TagsField {...form.tags} current={lead?.tags} example="spring-promo, referral" />
          <NotesField form={binding} />
        </FormSection>

        <FormActions
          onCancel={onCancel && (() => confirmDiscard(onCancel))}
          saving={save.isPending || safe.checking}
          disabled={isEdit && !dirty}
          submitLabel={isEdit ? "Save changes" : "Save lead"}
        />
        {discardDialog}
      </form>
      {/* Outside the form: Enter in the match dialog must not submit the form again. */}
      {safe.dialog}
    </>
  );
}

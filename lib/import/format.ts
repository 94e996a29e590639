import "server-only";
import { z } from "zod";
import { SCOPES } from "@/lib/values/scopes";
import {
  CUSTOMER_STATUSES,
  JOB_STATUSES,
  LEAD_PRIORITIES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  PLAN_FREQUENCIES,
  USER_ROLES,
} from "@/lib/db/schema";
import { parseIsoDate } from "@/lib/schemas/common";

/**
 * The import file (contract section 10), with the API's length rules so imports are writable by
 * the API. Extra optional fields (`created_at`, `active`, `archived_at`) reproduce a file exactly.
 */

const id = z.string().trim().min(1, "must not be empty").max(255);
const ref = id;
const short = z.string().max(255);
const nullableShort = short.nullish();

/**
 * ISO 8601 date or date-time; anything else (including numbers) is "not a date". A Date object is
 * taken as is, for documents built in code (tests).
 */
const isoDate = z
  .custom<string | Date>(() => true)
  .transform((value, ctx) => {
    if (value === undefined) {
      ctx.addIssue({ code: "custom", message: "required" });
      return z.NEVER;
    }
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
    const date = typeof value === "string" ? parseIsoDate(value.trim()) : null;
    if (!date) {
      ctx.addIssue({ code: "custom", message: "not a date" });
      return z.NEVER;
    }
    return date;
  });
const optionalDate = isoDate.optional();
const nullableDate = isoDate.nullish();

/** Dollars: a finite number that fits numeric(12,2). */
const money = z.number().min(-9_999_999_999.99).max(9_999_999_999.99);
const nonNegativeMoney = money.min(0, "must not be negative");

const email = z
  .string()
  .trim()
  .max(255)
  .regex(/^[^\s@]+@[^\s@]+$/, "not an email address");
const tags = z.array(z.string().max(100)).max(100);
const notes = z.string().max(10_000).nullish();
/** [latitude, longitude]. */
const location = z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)]);

const addressFields = <P extends "property" | "billing">(prefix: P) =>
  ({
    [`${prefix}_street1`]: nullableShort,
    [`${prefix}_street2`]: nullableShort,
    [`${prefix}_city`]: nullableShort,
    [`${prefix}_state`]: nullableShort,
    [`${prefix}_zip`]: nullableShort,
    [`${prefix}_country`]: nullableShort,
  }) as Record<`${P}_${"street1" | "street2" | "city" | "state" | "zip" | "country"}`, typeof nullableShort>;

export const importCompanySchema = z.object({
  id,
  name: z.string().trim().min(1, "must not be empty").max(255),
  created_at: optionalDate,
});

export const importUserSchema = z.object({
  id: id.optional(),
  company_id: ref,
  name: z.string().trim().min(1, "must not be empty").max(255),
  email,
  role: z.enum(USER_ROLES),
  password: z.string().min(8, "must be at least 8 characters").max(255).optional(),
  active: z.boolean().optional(),
  created_at: optionalDate,
});

export const importApiKeySchema = z.object({
  company_id: ref,
  name: z.string().trim().min(1, "must not be empty").max(255),
  key: z
    .string()
    .min(32, "must be at least 32 characters")
    .max(255)
    .regex(/^\S+$/, "must not contain spaces"),
  scopes: z.array(z.enum(SCOPES)),
  daily_limit: z.number().int().min(0).max(1_000_000_000).optional(),
  revoked: z.boolean().optional(),
  created_at: optionalDate,
});

export const importPinTypeSchema = z.object({
  id: id.optional(),
  company_id: ref,
  label: z.string().trim().min(1, "must not be empty").max(255),
  color: z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex color such as #1f77b4"),
});

export const importPinSchema = z.object({
  id: id.optional(),
  company_id: ref,
  pin_type_id: ref,
  created_by: ref,
  location,
  created_at: optionalDate,
});

export const importLeadSchema = z
  .object({
    id: id.optional(),
    company_id: ref,
    name: nullableShort,
    email: email.nullish(),
    phone: nullableShort,
    ...addressFields("property"),
    priority: z.enum(LEAD_PRIORITIES).nullish(),
    projected_value: money.nullish(),
    value_score: z.number().nullish(),
    service_type: nullableShort,
    lead_source: nullableShort,
    stage: nullableShort,
    lost_reason: nullableShort,
    tags: tags.optional(),
    notes,
    follow_up_date: nullableDate,
    assigned_to: ref.nullish(),
    archived: z.boolean().optional(),
    archived_at: nullableDate,
    created_at: optionalDate,
    location: location.nullish(),
  })
  .superRefine((lead, ctx) => {
    if (!lead.name?.trim() && !lead.email && !lead.phone?.trim())
      ctx.addIssue({ code: "custom", path: ["name"], message: "a lead needs a name, email or phone" });
  });

export const importCustomerSchema = z
  .object({
    id: id.optional(),
    company_id: ref,
    first_name: nullableShort,
    last_name: nullableShort,
    company_name: nullableShort,
    email: email.nullish(),
    phone: nullableShort,
    notes,
    source: nullableShort,
    ...addressFields("property"),
    ...addressFields("billing"),
    billing_same_as_property: z.boolean().optional(),
    service_frequency: nullableShort,
    service_type: nullableShort,
    status: z.enum(CUSTOMER_STATUSES).optional(),
    tags: tags.optional(),
    archived: z.boolean().optional(),
    archived_at: nullableDate,
    created_at: optionalDate,
    location: location.nullish(),
    is_auto_pay: z.boolean().optional(),
    has_payment_method: z.boolean().optional(),
  })
  .superRefine((c, ctx) => {
    if (
      !c.first_name?.trim() &&
      !c.last_name?.trim() &&
      !c.company_name?.trim() &&
      !c.email &&
      !c.phone?.trim()
    )
      ctx.addIssue({
        code: "custom",
        path: ["first_name"],
        message: "a customer needs a first name, last name, company name, email or phone",
      });
  });

export const importServicePlanSchema = z
  .object({
    id: id.optional(),
    company_id: ref,
    customer_id: ref,
    sold_by: ref.nullish(),
    frequency: z.enum(PLAN_FREQUENCIES),
    custom_frequency_label: nullableShort,
    service_type: nullableShort,
    start_date: nullableDate,
    active: z.boolean().optional(),
    created_at: optionalDate,
    total_visits: z.number().int().min(0).max(100_000).nullish(),
    price_per_visit: nonNegativeMoney.optional(),
  })
  .superRefine((plan, ctx) => {
    if (plan.frequency === "Custom" && plan.total_visits == null)
      ctx.addIssue({ code: "custom", path: ["total_visits"], message: "required when frequency is Custom" });
  });

const visitSchema = z.object({ start: isoDate, end: nullableDate }).superRefine((visit, ctx) => {
  if (visit.end && visit.end < visit.start)
    ctx.addIssue({ code: "custom", path: ["end"], message: "before start" });
});

const lineItemSchema = z.object({
  id: id.optional(),
  title: z.string().max(255).optional(),
  description: z.string().max(10_000).nullish(),
  total_price: money,
});

const paymentSchema = z.object({
  id: id.optional(),
  amount: nonNegativeMoney,
  payment_date: nullableDate,
  payment_method: z.enum(PAYMENT_METHODS),
  payment_type: z.enum(PAYMENT_TYPES),
  status: z.enum(PAYMENT_STATUSES),
});

export const importJobSchema = z.object({
  id: id.optional(),
  company_id: ref,
  customer_id: ref,
  service_plan_id: ref.nullish(),
  status: z.enum(JOB_STATUSES),
  is_quote: z.boolean().optional(),
  archived: z.boolean().optional(),
  created_at: optionalDate,
  assigned_to: ref.nullish(),
  crew: z.array(ref).optional(),
  visits: z.array(visitSchema).optional(),
  line_items: z.array(lineItemSchema).optional(),
  payments: z.array(paymentSchema).optional(),
});

/** The sections of a file, in the order they are written (each refers only to earlier ones). */
export const SECTION_SCHEMAS = {
  companies: importCompanySchema,
  users: importUserSchema,
  api_keys: importApiKeySchema,
  pin_types: importPinTypeSchema,
  pins: importPinSchema,
  customers: importCustomerSchema,
  leads: importLeadSchema,
  service_plans: importServicePlanSchema,
  jobs: importJobSchema,
} as const;

export type SectionName = keyof typeof SECTION_SCHEMAS;
export const SECTION_NAMES = Object.keys(SECTION_SCHEMAS) as SectionName[];

/** What a file may contain (input types: dates as ISO strings). */
export type ImportDocument = {
  [K in SectionName]?: z.input<(typeof SECTION_SCHEMAS)[K]>[];
};
export type ImportRecord<K extends SectionName> = z.input<(typeof SECTION_SCHEMAS)[K]>;

/** A file after validation (dates as Date), each record with its position in the file. */
export type ParsedDocument = {
  [K in SectionName]: { index: number; record: z.output<(typeof SECTION_SCHEMAS)[K]> }[];
};

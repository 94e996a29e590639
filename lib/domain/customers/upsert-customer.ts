import "server-only";
import { customers } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { normalizeEmail, normalizePhone, uniqueTags } from "@/lib/values/normalize";
import {
  dryRunUpsertRecord,
  matchOption,
  upsertRecord,
  type UpsertSpec,
} from "@/lib/domain/upsert/upsert-record";
import { actorOf } from "@/lib/domain/activity/activity";
import type { DomainContext } from "@/lib/domain/context";
import { ID_PREFIX, newId } from "@/lib/ids";
import type {
  CustomerDryRunResponse,
  CustomerUpsertResponse,
  UpsertCustomerBody,
} from "@/lib/schemas/customers";
import { TAGS_MAX } from "@/lib/schemas/upsert-fields";
import {
  billingOnUpdate,
  customerColumns,
  DETAILED_CUSTOMER_FIELDS,
  newCustomerColumns,
  toCustomerDetail,
  toCustomerUpsertResponse,
  type DetailedCustomerRow,
} from "./customer-record";

/**
 * POST /customers (contract section 6): upsert by id, phone or email as upsertRecord matches;
 * present fields overwrite, null clears, tags merge, and a new customer is active unless given.
 */
export async function upsertCustomer({
  ctx,
  input,
}: {
  ctx: CustomerWriteContext;
  input: UpsertCustomerBody;
}): Promise<{ created: boolean; customer: CustomerUpsertResponse }> {
  const { created, matchedOn, row } = await upsertRecord<typeof customers, DetailedCustomerRow>(
    ctx.db,
    customerUpsertSpec(ctx, input),
  );
  return { created, customer: toCustomerUpsertResponse(row, matchedOn) };
}

/** POST /customers?dry_run=true: what upsertCustomer would do and answer, with nothing written. */
export async function dryRunUpsertCustomer({
  ctx,
  input,
}: {
  ctx: CustomerWriteContext;
  input: UpsertCustomerBody;
}): Promise<CustomerDryRunResponse> {
  return dryRunUpsertRecord(
    ctx.db,
    customerUpsertSpec(ctx, input),
    toCustomerDetail,
    toCustomerUpsertResponse,
  );
}

/** A customer's writers also need who acts: the activity entry names them. */
export type CustomerWriteContext = Pick<DomainContext, "db" | "companyId" | "principal">;

/** What a customer's update activity leaves out: fields no create-or-update sets. */
export const CUSTOMER_ACTIVITY_IGNORED: ReadonlySet<string> = new Set([
  "id",
  "created_at",
  "archived",
  "archived_at",
]);

/** Why a body that can neither match nor make a customer is refused. */
export const NEW_CUSTOMER_NEEDS =
  "a new customer needs a first name, last name, company name, email or phone";

/** The create-or-update of a customer as upsertRecord runs it; refuses a body that cannot create. */
export function customerUpsertSpec(
  ctx: CustomerWriteContext,
  input: UpsertCustomerBody,
): UpsertSpec<typeof customers> {
  const match = matchOption(input);
  const keys = { id: input.id, phone: normalizePhone(input.phone), email: normalizeEmail(input.email) };
  const values = customerColumns(input, "kept");
  // Without an id, phone or email nothing can match: the call creates, and needs one of these.
  if (
    keys.id === undefined &&
    !keys.phone &&
    !keys.email &&
    !values.firstName &&
    !values.lastName &&
    !values.companyName &&
    !input.phone
  ) {
    const message = NEW_CUSTOMER_NEEDS;
    throw new ValidationError(
      ["first_name", "last_name", "company_name", "email", "phone"].map((field) => ({ field, message })),
    );
  }
  return {
    table: customers,
    fields: DETAILED_CUSTOMER_FIELDS,
    companyId: ctx.companyId,
    keys,
    match,
    update: { ...values, ...billingOnUpdate(values) },
    create: { ...newCustomerColumns(input), id: newId(ID_PREFIX.customer) },
    tags: uniqueTags(input.tags ?? []),
    removeTags: input.remove_tags ?? [],
    maxTags: TAGS_MAX,
    activity: {
      recordType: "customer",
      actor: actorOf(ctx.principal),
      answer: toCustomerDetail,
      ignore: CUSTOMER_ACTIVITY_IGNORED,
    },
    notFound: () => new NotFoundError("Customer"),
    tooManyTags: (count) =>
      new ValidationError([
        { field: "tags", message: `a customer can have at most ${TAGS_MAX} tags (${count} after merging)` },
      ]),
  };
}

import "server-only";
import { NotFoundError } from "@/lib/domain/errors";
import { customers } from "@/lib/db/schema";
import { recordById } from "@/lib/domain/records/by-id";
import type { CustomerDetail, CustomerIdParams } from "@/lib/schemas/customers";
import {
  DETAILED_CUSTOMER_FIELDS,
  toCustomerDetail,
  type CustomerContext,
  type DetailedCustomerRow,
} from "./customer-record";

const customerById = recordById<DetailedCustomerRow>(
  customers,
  DETAILED_CUSTOMER_FIELDS,
  "fcrm_customer_by_id_v4",
);

/** GET /customers/{id}: one customer of the company; another company's id is "Customer not found". */
export async function getCustomerOrThrow({
  ctx,
  input,
}: {
  ctx: CustomerContext;
  input: CustomerIdParams;
}): Promise<CustomerDetail> {
  const row = await customerById(ctx.db, ctx.companyId, input.id);
  if (!row) throw new NotFoundError("Customer");
  return toCustomerDetail(row);
}

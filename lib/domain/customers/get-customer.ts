import { NotFoundError } from "@/lib/domain/errors";
import { storedRecordById } from "@/lib/domain/record-matching";
import type { CustomerDetail, CustomerIdParams } from "@/lib/schemas/customers";
import { DETAILED_CUSTOMER, toCustomerDetail, type CustomerContext } from "./customer-record";

const customerById = storedRecordById(DETAILED_CUSTOMER, "fcrm_customer_by_id_v2");

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

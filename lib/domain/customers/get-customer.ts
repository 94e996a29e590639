import { and, eq } from "drizzle-orm";
import { customers } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/domain/errors";
import type { CustomerDetail, CustomerIdParams } from "@/lib/schemas/customers";
import { toCustomerDetail, type CustomerContext } from "./customer-record";

/** GET /customers/{id}: one customer of the company; another company's id is "Customer not found". */
export async function getCustomerOrThrow({
  ctx,
  input,
}: {
  ctx: CustomerContext;
  input: CustomerIdParams;
}): Promise<CustomerDetail> {
  const [row] = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, ctx.companyId), eq(customers.id, input.id)))
    .limit(1);
  if (!row) throw new NotFoundError("Customer");
  return toCustomerDetail(row);
}

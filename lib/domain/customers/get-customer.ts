import { and, eq, sql } from "drizzle-orm";
import { preparedPerDatabase } from "@/lib/db/client";
import { customers } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/domain/errors";
import type { CustomerDetail, CustomerIdParams } from "@/lib/schemas/customers";
import { toCustomerDetail, type CustomerContext } from "./customer-record";

const byId = preparedPerDatabase((db) =>
  db
    .select()
    .from(customers)
    .where(
      and(eq(customers.companyId, sql.placeholder("companyId")), eq(customers.id, sql.placeholder("id"))),
    )
    .limit(1)
    .prepare("fcrm_customer_by_id_v1"),
);

/** GET /customers/{id}: one customer of the company; another company's id is "Customer not found". */
export async function getCustomerOrThrow({
  ctx,
  input,
}: {
  ctx: CustomerContext;
  input: CustomerIdParams;
}): Promise<CustomerDetail> {
  const [row] = await byId(ctx.db).execute({ companyId: ctx.companyId, id: input.id });
  if (!row) throw new NotFoundError("Customer");
  return toCustomerDetail(row);
}

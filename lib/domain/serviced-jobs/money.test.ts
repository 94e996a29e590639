import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobLineItems, jobPayments, jobs } from "@/lib/db/schema";
import { createTenant } from "@/lib/testing/factories";
import { insertCustomer, insertJob } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

/** The kept totals next to the totals recomputed from the children, per job. */
async function totals(companyId: string) {
  return database.db
    .execute<{
      id: string;
      kept_total: string;
      kept_received: string;
      total: string;
      received: string;
    }>(
      sql`select j.id, j.line_items_total::text as kept_total, j.total_received::text as kept_received,
      coalesce((select sum(li.total_price) from job_line_items li
        where li.company_id = j.company_id and li.job_id = j.id), 0)::numeric(12,2)::text as total,
      coalesce((select sum(case when p.payment_type = 'refund' then -p.amount else p.amount end)
        from job_payments p where p.company_id = j.company_id and p.job_id = j.id and p.status = 'succeeded'), 0)
        ::numeric(12,2)::text as received
    from jobs j where j.company_id = ${companyId} order by j.id`,
    )
    .then((result) => result.rows);
}

describe(`job money kept on the job row (${testEngine()})`, () => {
  it("follows inserts, updates and deletes of line items and payments", async () => {
    const { companyId } = await createTenant(database.db);
    const db = database.db;
    const customer = await insertCustomer(db, companyId);
    const a = await insertJob(db, companyId, {
      id: `${companyId}_a`,
      customerId: customer.id,
      lineItems: [{ totalPrice: 100 }, { totalPrice: 25.5 }],
      payments: [
        { amount: 100 },
        { amount: 20, paymentType: "refund" },
        { amount: 50, status: "failed" },
        { amount: 30, status: "pending" },
      ],
    });
    const b = await insertJob(db, companyId, { id: `${companyId}_b`, customerId: customer.id });
    const kept = async () => {
      const rows = await totals(companyId);
      for (const row of rows) {
        expect(row.kept_total).toBe(row.total);
        expect(row.kept_received).toBe(row.received);
      }
      return rows.map((r) => [r.kept_total, r.kept_received]);
    };
    expect(await kept()).toEqual([
      ["125.50", "80.00"],
      ["0.00", "0.00"],
    ]);

    // The pending payment succeeds; the failed one becomes a refund that succeeded.
    await db
      .update(jobPayments)
      .set({ status: "succeeded" })
      .where(inArray(jobPayments.id, [a.paymentIds[3]!]));
    await db
      .update(jobPayments)
      .set({ status: "succeeded", paymentType: "refund" })
      .where(eq(jobPayments.id, a.paymentIds[2]!));
    expect(await kept()).toEqual([
      ["125.50", "60.00"],
      ["0.00", "0.00"],
    ]);

    // A line item moves to job B and changes price; one payment moves too.
    await db
      .update(jobLineItems)
      .set({ jobId: b.id, totalPrice: 40 })
      .where(eq(jobLineItems.id, a.lineItemIds[1]!));
    await db.update(jobPayments).set({ jobId: b.id }).where(eq(jobPayments.id, a.paymentIds[0]!));
    expect(await kept()).toEqual([
      ["100.00", "-40.00"],
      ["40.00", "100.00"],
    ]);

    // The import's way: delete a job's children and insert the file's.
    await db
      .delete(jobLineItems)
      .where(and(eq(jobLineItems.companyId, companyId), eq(jobLineItems.jobId, a.id)));
    await db
      .delete(jobPayments)
      .where(and(eq(jobPayments.companyId, companyId), eq(jobPayments.jobId, a.id)));
    await db.insert(jobLineItems).values([
      { companyId, id: `${companyId}_li1`, jobId: a.id, totalPrice: 10.01 },
      { companyId, id: `${companyId}_li2`, jobId: a.id, totalPrice: 0.02 },
      { companyId, id: `${companyId}_li3`, jobId: b.id, totalPrice: 1 },
    ]);
    expect(await kept()).toEqual([
      ["10.03", "0.00"],
      ["41.00", "100.00"],
    ]);

    // Deleting a job takes its children with it; the other job keeps its totals.
    await db.delete(jobs).where(and(eq(jobs.companyId, companyId), eq(jobs.id, a.id)));
    expect(await kept()).toEqual([["41.00", "100.00"]]);
  });
});

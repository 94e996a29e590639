import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobLineItems, jobPayments, jobs } from "@/lib/db/schema";
import { createTenant } from "@/lib/testing/factories";
import { insertCustomer, insertJob, insertPlan } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { serviceFrequencyName, VISITS_PER_YEAR } from "./numbers";

const database = setupTestDatabase();

/** Each plan's kept sums next to the same sums recomputed from its jobs. */
async function keptAndRecomputed(companyId: string) {
  return database.db
    .execute<{ id: string; kept: string; recomputed: string }>(
      sql`select p.id,
      concat_ws('|', p.jobs_completed, p.jobs_scheduled, p.jobs_not_cancelled,
        p.not_cancelled_line_items_total, p.jobs_received) as kept,
      concat_ws('|',
        count(j.id) filter (where j.status = 'Completed'),
        count(j.id) filter (where j.status in ('Scheduled', 'In Progress', 'Completed')),
        count(j.id) filter (where j.status <> 'Cancelled'),
        coalesce(sum(j.line_items_total) filter (where j.status <> 'Cancelled'), 0)::numeric(12,2),
        coalesce(sum(j.total_received), 0)::numeric(12,2)) as recomputed
    from service_plans p
    left join jobs j on j.company_id = p.company_id and j.service_plan_id = p.id
      and not j.is_quote and not j.archived
    where p.company_id = ${companyId}
    group by p.company_id, p.id
    order by p.id`,
    )
    .then((result) => result.rows);
}

describe(`plan job sums kept on the plan row (${testEngine()})`, () => {
  it("follow every kind of write to jobs and to their line items and payments", async () => {
    const { companyId } = await createTenant(database.db);
    const db = database.db;
    const customer = await insertCustomer(db, companyId);
    const a = await insertPlan(db, companyId, { id: `${companyId}_a`, customerId: customer.id });
    const b = await insertPlan(db, companyId, { id: `${companyId}_b`, customerId: customer.id });
    const check = async () => {
      const rows = await keptAndRecomputed(companyId);
      for (const row of rows) expect(row.kept).toBe(row.recomputed);
      return rows.map((r) => r.kept);
    };

    const j1 = await insertJob(db, companyId, {
      customerId: customer.id,
      servicePlanId: a.id,
      status: "Completed",
      lineItems: [{ totalPrice: 100 }, { totalPrice: 25.5 }],
      payments: [{ amount: 100 }, { amount: 20, paymentType: "refund" }],
    });
    const j2 = await insertJob(db, companyId, {
      customerId: customer.id,
      servicePlanId: a.id,
      status: "Cancelled",
      lineItems: [{ totalPrice: 40 }],
      payments: [{ amount: 10 }],
    });
    await insertJob(db, companyId, {
      customerId: customer.id,
      servicePlanId: a.id,
      status: "Completed",
      isQuote: true,
      lineItems: [{ totalPrice: 999 }],
    });
    expect(await check()).toEqual(["1|1|1|125.50|90.00", "0|0|0|0.00|0.00"]);

    // Status changes, a move to another plan, archiving, un-quoting.
    await db.update(jobs).set({ status: "Scheduled" }).where(eq(jobs.id, j2.id));
    expect(await check()).toEqual(["1|2|2|165.50|90.00", "0|0|0|0.00|0.00"]);
    await db.update(jobs).set({ servicePlanId: b.id }).where(eq(jobs.id, j1.id));
    expect(await check()).toEqual(["0|1|1|40.00|10.00", "1|1|1|125.50|80.00"]);
    await db.update(jobs).set({ archived: true }).where(eq(jobs.id, j2.id));
    await db
      .update(jobs)
      .set({ isQuote: false, status: "In Progress" })
      .where(and(eq(jobs.companyId, companyId), eq(jobs.isQuote, true)));
    expect(await check()).toEqual(["0|1|1|999.00|0.00", "1|1|1|125.50|80.00"]);

    // Money changes through the children reach the plan.
    await db.update(jobLineItems).set({ totalPrice: 0.5 }).where(eq(jobLineItems.id, j1.lineItemIds[1]!));
    await db.update(jobPayments).set({ status: "failed" }).where(eq(jobPayments.id, j1.paymentIds[1]!));
    await db.insert(jobPayments).values({
      companyId,
      id: `${companyId}_pay`,
      jobId: j1.id,
      amount: 0.01,
      paymentMethod: "cash",
      paymentType: "payment",
      status: "succeeded",
    });
    expect(await check()).toEqual(["0|1|1|999.00|0.00", "1|1|1|100.50|100.01"]);

    // Leaving the plan, and deleting.
    await db.update(jobs).set({ servicePlanId: null }).where(eq(jobs.id, j1.id));
    await db.delete(jobs).where(and(eq(jobs.companyId, companyId), eq(jobs.servicePlanId, a.id)));
    expect(await check()).toEqual(["0|0|0|0.00|0.00", "0|0|0|0.00|0.00"]);
  });
});

describe("plan number rules", () => {
  it("names Custom plans by their label and others by their frequency", () => {
    expect(serviceFrequencyName("Custom", "Every 5 weeks")).toBe("Every 5 weeks");
    expect(serviceFrequencyName("Custom", "  ")).toBe("Custom");
    expect(serviceFrequencyName("Custom", null)).toBe("Custom");
    expect(serviceFrequencyName("Bi-Weekly", "ignored")).toBe("Bi-Weekly");
  });
  it("plans a year of visits per frequency", () => {
    expect(Object.values(VISITS_PER_YEAR)).toEqual([1, 1, 2, 3, 4, 6, 12, 26, 52]);
  });
});

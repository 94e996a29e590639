import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import {
  customers,
  jobCrew,
  jobLineItems,
  jobPayments,
  jobs,
  jobVisits,
  pins,
  pinTypes,
  servicePlans,
  type JobStatus,
  type PlanFrequency,
} from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { createApiKey, createCompany, createUser } from "./factories";

/*
 * Each helper writes exactly the rows it is given, so a test can compute every expected number by hand.
 * Jobs get jobs.service_date = the earliest visit start, as every writer must keep it.
 */

const date = (value: Date | string) => (typeof value === "string" ? new Date(value) : value);

export async function insertCustomer(
  db: DbOrTx,
  companyId: string,
  values: {
    id?: string;
    firstName?: string | null;
    lastName?: string | null;
    companyName?: string | null;
  } = {},
) {
  const id = values.id ?? newId(ID_PREFIX.customer);
  const firstName = values.firstName === undefined ? "Pat" : values.firstName;
  const lastName = values.lastName === undefined ? "Doe" : values.lastName;
  // Only these columns: migration tests insert customers into a schema older than the current one,
  // where Drizzle's insert would name every column of today's table.
  await db.execute(sql`insert into ${customers} ("company_id", "id", "first_name", "last_name", "company_name")
    values (${companyId}, ${id}, ${firstName}, ${lastName}, ${values.companyName ?? null})`);
  return { id };
}

export interface PlanFixture {
  id?: string;
  customerId: string;
  soldBy?: string | null;
  frequency?: PlanFrequency;
  customFrequencyLabel?: string | null;
  serviceType?: string | null;
  startDate?: Date | string | null;
  active?: boolean;
  createdAt?: Date | string;
  totalVisits?: number | null;
  pricePerVisit?: number;
}

export async function insertPlan(db: DbOrTx, companyId: string, plan: PlanFixture) {
  const id = plan.id ?? newId(ID_PREFIX.servicePlan);
  await db.insert(servicePlans).values({
    companyId,
    id,
    customerId: plan.customerId,
    soldBy: plan.soldBy ?? null,
    frequency: plan.frequency ?? "Quarterly",
    customFrequencyLabel: plan.customFrequencyLabel ?? null,
    serviceType: plan.serviceType === undefined ? "Pest Control" : plan.serviceType,
    startDate: plan.startDate ? date(plan.startDate) : null,
    active: plan.active ?? true,
    createdAt: plan.createdAt ? date(plan.createdAt) : new Date(),
    totalVisits: plan.totalVisits ?? null,
    pricePerVisit: plan.pricePerVisit ?? 0,
  });
  return { id };
}

export interface JobFixture {
  id?: string;
  customerId: string;
  servicePlanId?: string | null;
  status?: JobStatus;
  isQuote?: boolean;
  archived?: boolean;
  createdAt?: Date | string;
  assignedTo?: string | null;
  /** Crew user ids in crew order (position = index). */
  crew?: string[];
  visits?: { start: Date | string; end?: Date | string }[];
  lineItems?: { id?: string; title?: string; description?: string; totalPrice: number; position?: number }[];
  payments?: {
    id?: string;
    amount: number;
    paymentDate?: Date | string | null;
    paymentMethod?: "card" | "ach" | "cash" | "check" | "other";
    paymentType?: "payment" | "refund";
    status?: "succeeded" | "pending" | "failed";
  }[];
}

export async function insertJob(db: DbOrTx, companyId: string, job: JobFixture) {
  const id = job.id ?? newId(ID_PREFIX.job);
  const visits = (job.visits ?? []).map((v) => ({ start: date(v.start), end: v.end ? date(v.end) : null }));
  const serviceDate = visits.length ? new Date(Math.min(...visits.map((v) => v.start.getTime()))) : null;
  await db.insert(jobs).values({
    companyId,
    id,
    customerId: job.customerId,
    servicePlanId: job.servicePlanId ?? null,
    status: job.status ?? "Completed",
    isQuote: job.isQuote ?? false,
    archived: job.archived ?? false,
    assignedTo: job.assignedTo ?? null,
    serviceDate,
    createdAt: job.createdAt ? date(job.createdAt) : new Date(),
  });
  if (visits.length) {
    await db.insert(jobVisits).values(
      visits.map((v) => ({
        companyId,
        id: newId(ID_PREFIX.visit),
        jobId: id,
        startsAt: v.start,
        endsAt: v.end,
      })),
    );
  }
  if (job.crew?.length) {
    await db.insert(jobCrew).values(
      job.crew.map((userId, position) => ({
        companyId,
        id: newId(ID_PREFIX.crew),
        jobId: id,
        userId,
        position,
      })),
    );
  }
  const lineItemIds: string[] = [];
  if (job.lineItems?.length) {
    const rows = job.lineItems.map((li, index) => ({
      companyId,
      id: li.id ?? newId(ID_PREFIX.lineItem),
      jobId: id,
      title: li.title ?? `Line ${index + 1}`,
      description: li.description ?? "",
      totalPrice: li.totalPrice,
      position: li.position ?? index,
    }));
    lineItemIds.push(...rows.map((r) => r.id));
    await db.insert(jobLineItems).values(rows);
  }
  const paymentIds: string[] = [];
  if (job.payments?.length) {
    const rows = job.payments.map((p) => ({
      companyId,
      id: p.id ?? newId(ID_PREFIX.payment),
      jobId: id,
      amount: p.amount,
      paymentDate: p.paymentDate === null ? null : date(p.paymentDate ?? "2026-01-15T12:00:00Z"),
      paymentMethod: p.paymentMethod ?? "card",
      paymentType: p.paymentType ?? "payment",
      status: p.status ?? "succeeded",
    }));
    paymentIds.push(...rows.map((r) => r.id));
    await db.insert(jobPayments).values(rows);
  }
  return { id, serviceDate, lineItemIds, paymentIds };
}

export async function insertPinType(
  db: DbOrTx,
  companyId: string,
  values: { id?: string; label: string; color?: string },
) {
  const id = values.id ?? newId(ID_PREFIX.pinType);
  await db.insert(pinTypes).values({ companyId, id, label: values.label, color: values.color ?? "#3366ff" });
  return { id, label: values.label, color: values.color ?? "#3366ff" };
}

export async function insertPin(
  db: DbOrTx,
  companyId: string,
  values: {
    id?: string;
    pinTypeId: string;
    createdBy: string;
    latitude: number;
    longitude: number;
    createdAt?: Date | string;
  },
) {
  const id = values.id ?? newId(ID_PREFIX.pin);
  await db.insert(pins).values({
    companyId,
    id,
    pinTypeId: values.pinTypeId,
    createdBy: values.createdBy,
    latitude: values.latitude,
    longitude: values.longitude,
    createdAt: values.createdAt ? date(values.createdAt) : new Date(),
  });
  return { id };
}

/**
 * A tenant with a hand-computed set of plans and jobs (the numbers the tests expect are worked
 * out in the comments). Each call makes a new company, users and key.
 *
 * Plans (list order, newest first: P4, P3, P2, P1):
 * - P1 Quarterly (4 visits), 50/visit, Alice, "Pest Control", active, created 2026-01-10.
 *   Jobs J1 Completed (lines 100 + 25.50; paid 100, refund 20, failed 50, pending 30: received 80),
 *   J2 Scheduled (60), J3 Cancelled (40, paid 10), J4 In Progress (70, paid 70), J5 a quote and
 *   J6 archived (never counted). completed 1, scheduled 3, pending 1,
 *   sale 125.50 + 60 + 70 + (4 − 3) × 50 = 305.50, received 80 + 10 + 70 = 160.
 * - P2 Custom "Every 5 weeks", 10 visits, 19.99/visit, Bob, "Lawn", inactive, created 2026-02-01.
 *   J7 Unscheduled (no visit), J8 Completed (19.99, paid 19.99 then refunded). completed 1,
 *   scheduled 1, pending 9, sale 19.99 + (10 − 2) × 19.99 = 179.91, received 0.
 * - P3 Weekly (52), 12.50/visit, no seller, no service type, customer "Acme" (company only),
 *   created 2026-03-31T23:59:59.999Z, no jobs: pending 52, sale 650.
 * - P4 Annual (1), 100/visit, Alice, "Pest Control", created 2026-04-01: J9 Completed (80),
 *   J10 Completed (80, paid 100: outstanding 0). completed 2, scheduled 2, pending 0, sale 160,
 *   received 100.
 * J11: no plan, Unscheduled, no visit.
 */
export async function createPlanJobScenario(db: DbOrTx) {
  const company = await createCompany(db);
  const companyId = company.id;
  const { key } = await createApiKey(db, companyId);
  const alice = await createUser(db, companyId, {
    name: "Alice Seller",
    email: "alice@example.test",
    role: "sales_rep",
  });
  const bob = await createUser(db, companyId, {
    name: "Bob Seller",
    email: "bob@example.test",
    role: "sales_rep",
  });
  const t1 = await createUser(db, companyId, {
    name: "Tess Tech",
    email: "tess@example.test",
    role: "technician",
  });
  const t2 = await createUser(db, companyId, {
    name: "Uma Tech",
    email: "uma@example.test",
    role: "technician",
  });
  const t3 = await createUser(db, companyId, {
    name: "Vic Tech",
    email: "vic@example.test",
    role: "technician",
  });
  const pat = await insertCustomer(db, companyId, { firstName: "Pat", lastName: "Doe" });
  const acme = await insertCustomer(db, companyId, { firstName: null, lastName: null, companyName: "Acme" });

  const p1 = await insertPlan(db, companyId, {
    customerId: pat.id,
    soldBy: alice.id,
    frequency: "Quarterly",
    serviceType: "Pest Control",
    startDate: "2026-01-15T00:00:00Z",
    createdAt: "2026-01-10T10:00:00Z",
    pricePerVisit: 50,
  });
  const p2 = await insertPlan(db, companyId, {
    customerId: pat.id,
    soldBy: bob.id,
    frequency: "Custom",
    customFrequencyLabel: "Every 5 weeks",
    totalVisits: 10,
    serviceType: "Lawn",
    active: false,
    createdAt: "2026-02-01T00:00:00Z",
    pricePerVisit: 19.99,
  });
  const p3 = await insertPlan(db, companyId, {
    customerId: acme.id,
    frequency: "Weekly",
    serviceType: null,
    createdAt: "2026-03-31T23:59:59.999Z",
    pricePerVisit: 12.5,
  });
  const p4 = await insertPlan(db, companyId, {
    customerId: pat.id,
    soldBy: alice.id,
    frequency: "Annual",
    serviceType: "Pest Control",
    createdAt: "2026-04-01T00:00:00Z",
    pricePerVisit: 100,
  });

  const j1 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p1.id,
    status: "Completed",
    createdAt: "2026-01-11T10:00:00Z",
    visits: [
      { start: "2026-01-20T09:00:00Z" },
      { start: "2026-01-18T14:00:00Z", end: "2026-01-18T15:00:00Z" },
    ],
    assignedTo: t1.id,
    crew: [t2.id, t1.id, t3.id],
    lineItems: [
      { title: "Inspection", description: 'Full, with "attic"', totalPrice: 100 },
      { title: "Bait", totalPrice: 25.5 },
    ],
    payments: [
      { amount: 100, paymentDate: "2026-01-19T12:00:00Z", paymentMethod: "card" },
      { amount: 20, paymentDate: "2026-01-25T12:00:00Z", paymentType: "refund", paymentMethod: "card" },
      { amount: 50, paymentDate: "2026-01-18T12:00:00Z", status: "failed", paymentMethod: "ach" },
      { amount: 30, paymentDate: null, status: "pending", paymentMethod: "check" },
    ],
  });
  const j2 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p1.id,
    status: "Scheduled",
    createdAt: "2026-01-12T10:00:00Z",
    visits: [{ start: "2026-04-15T08:00:00Z" }],
    crew: [t3.id, t2.id],
    lineItems: [{ totalPrice: 60 }],
  });
  const j3 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p1.id,
    status: "Cancelled",
    createdAt: "2026-01-13T10:00:00Z",
    visits: [{ start: "2026-02-10T08:00:00Z" }],
    lineItems: [{ totalPrice: 40 }],
    payments: [{ amount: 10, paymentMethod: "cash" }],
  });
  const j4 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p1.id,
    status: "In Progress",
    createdAt: "2026-01-14T10:00:00Z",
    visits: [{ start: "2026-03-31T23:30:00Z" }],
    assignedTo: t2.id,
    lineItems: [{ totalPrice: 70 }],
    payments: [{ amount: 70 }],
  });
  const j5 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p1.id,
    status: "Completed",
    isQuote: true,
    createdAt: "2026-01-15T10:00:00Z",
    visits: [{ start: "2026-01-20T08:00:00Z" }],
    assignedTo: t1.id,
    lineItems: [{ totalPrice: 1000 }],
    payments: [{ amount: 500 }],
  });
  const j6 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p1.id,
    status: "Completed",
    archived: true,
    createdAt: "2026-01-16T10:00:00Z",
    visits: [{ start: "2026-01-21T08:00:00Z" }],
    assignedTo: t1.id,
    lineItems: [{ totalPrice: 999 }],
    payments: [{ amount: 999 }],
  });
  const j7 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p2.id,
    status: "Unscheduled",
    createdAt: "2026-02-02T10:00:00Z",
  });
  const j8 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p2.id,
    status: "Completed",
    createdAt: "2026-02-03T10:00:00Z",
    visits: [{ start: "2026-02-05T00:00:00Z" }],
    assignedTo: t3.id,
    lineItems: [{ totalPrice: 19.99 }],
    payments: [
      { amount: 19.99, paymentDate: "2026-02-05T10:00:00Z" },
      { amount: 19.99, paymentDate: "2026-02-06T10:00:00Z", paymentType: "refund" },
    ],
  });
  const j9 = await insertJob(db, companyId, {
    customerId: pat.id,
    servicePlanId: p4.id,
    status: "Completed",
    createdAt: "2026-04-02T10:00:00Z",
    visits: [{ start: "2026-04-03T08:00:00Z" }],
    lineItems: [{ totalPrice: 80 }],
  });
  const j10 = await insertJob(db, companyId, {
    customerId: acme.id,
    servicePlanId: p4.id,
    status: "Completed",
    createdAt: "2026-04-03T10:00:00Z",
    visits: [{ start: "2026-04-04T08:00:00Z" }],
    lineItems: [{ totalPrice: 80 }],
    payments: [{ amount: 100 }],
  });
  const j11 = await insertJob(db, companyId, {
    customerId: acme.id,
    status: "Unscheduled",
    createdAt: "2026-04-05T10:00:00Z",
  });
  return {
    companyId,
    key,
    users: { alice, bob, t1, t2, t3 },
    customers: { pat, acme },
    plans: { p1, p2, p3, p4 },
    jobs: { j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, j11 },
  };
}
export type PlanJobScenario = Awaited<ReturnType<typeof createPlanJobScenario>>;

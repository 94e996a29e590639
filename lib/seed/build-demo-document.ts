import { DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";
import type { PlanFrequency } from "@/lib/db/schema";
import { PLAN_FREQUENCIES } from "@/lib/db/schema";
import type { ImportDocument, ImportRecord } from "@/lib/import";
import { DEFAULT_LOST_REASONS } from "@/lib/schemas/lost-reasons";
import { AUSTIN_AREAS, BUSINESS_NAMES, EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES } from "./austin";
import {
  DEMO_ANCHOR,
  DEMO_API_KEY,
  DEMO_API_KEY_NAME,
  DEMO_API_KEY_SCOPES,
  DEMO_COMPANIES,
  DEMO_PASSWORD,
  DEMO_USERS,
  type DemoCompanyKey,
} from "./demo";
import { Random, seededId } from "./random";

const DAY = 86_400_000;
const HOUR = 3_600_000;

type Lead = ImportRecord<"leads">;
type Customer = ImportRecord<"customers">;
type Plan = ImportRecord<"service_plans">;
type Job = ImportRecord<"jobs">;
type Pin = ImportRecord<"pins">;

/** What differs between the two demo companies. */
interface CompanyProfile {
  key: DemoCompanyKey;
  seed: number;
  leads: number;
  customers: number;
  pins: number;
  quotes: number;
  archivedJobs: number;
  /** One-off jobs under way at the anchor time ("In Progress"). */
  jobsToday: number;
  serviceTypes: readonly string[];
  frequencyWeights: readonly (readonly [PlanFrequency, number])[];
  /** Price per visit range by frequency, dollars. */
  prices: Record<PlanFrequency, readonly [number, number]>;
  extras: readonly (readonly [string, string, number])[];
  leadTags: readonly string[];
  customerTags: readonly string[];
  customLabels: readonly string[];
  pinTypes: readonly (readonly [string, string, string, number])[];
}

const PEST: CompanyProfile = {
  key: "pest",
  seed: 20261116,
  leads: 650,
  customers: 320,
  pins: 1750,
  quotes: 18,
  archivedJobs: 12,
  jobsToday: 3,
  serviceTypes: ["General Pest", "Termite", "Mosquito", "Rodent", "Bed Bug", "Wildlife"],
  frequencyWeights: [
    ["Quarterly", 30],
    ["Monthly", 12],
    ["Bi-Monthly", 10],
    ["Semi-Annual", 8],
    ["Annual", 8],
    ["Tri-Annual", 6],
    ["One-Time", 8],
    ["Bi-Weekly", 4],
    ["Weekly", 3],
    ["Custom", 6],
  ],
  prices: {
    "One-Time": [150, 450],
    Annual: [249, 399],
    "Semi-Annual": [149, 199],
    "Tri-Annual": [129, 169],
    Quarterly: [109, 159],
    "Bi-Monthly": [79, 109],
    Monthly: [59, 89],
    "Bi-Weekly": [45, 65],
    Weekly: [35, 55],
    Custom: [89, 139],
  },
  extras: [
    ["Termite bait station check", "Inspect and refill bait stations", 45],
    ["Mosquito fogging", "Yard and perimeter fogging", 65],
    ["Rodent exclusion", "Seal entry points, set traps", 180],
    ["Wasp nest removal", "Remove nests at eaves", 75],
    ["Trip charge", "Return visit outside the schedule", 25],
  ],
  leadTags: [
    "spring-promo",
    "referral",
    "termite",
    "mosquito",
    "commercial",
    "door-knock",
    "repeat",
    "new-construction",
  ],
  customerTags: ["vip", "commercial", "pets", "gate-code", "call-ahead", "eco-products"],
  customLabels: ["Every 6 weeks", "Spring & fall", "Every 5 weeks (Mar–Oct)", "Twice in summer"],
  pinTypes: [
    ["pt_pest_not_home", "Not home", "#9e9e9e", 35],
    ["pt_pest_not_interested", "Not interested", "#c62828", 25],
    ["pt_pest_interested", "Interested", "#2e7d32", 15],
    ["pt_pest_come_back", "Come back later", "#f9a825", 15],
    ["pt_pest_sold", "Sold", "#1565c0", 10],
  ],
};

const LAWN: CompanyProfile = {
  key: "lawn",
  seed: 20261117,
  leads: 150,
  customers: 90,
  pins: 250,
  quotes: 6,
  archivedJobs: 4,
  jobsToday: 1,
  serviceTypes: [
    "Mowing",
    "Fertilization",
    "Weed Control",
    "Aeration",
    "Landscape Maintenance",
    "Irrigation Check",
  ],
  frequencyWeights: [
    ["Weekly", 25],
    ["Bi-Weekly", 25],
    ["Monthly", 15],
    ["Quarterly", 10],
    ["Semi-Annual", 5],
    ["Annual", 5],
    ["One-Time", 8],
    ["Bi-Monthly", 3],
    ["Tri-Annual", 2],
    ["Custom", 5],
  ],
  prices: {
    "One-Time": [120, 380],
    Annual: [180, 260],
    "Semi-Annual": [95, 140],
    "Tri-Annual": [85, 120],
    Quarterly: [75, 110],
    "Bi-Monthly": [65, 90],
    Monthly: [55, 85],
    "Bi-Weekly": [45, 60],
    Weekly: [35, 50],
    Custom: [60, 95],
  },
  extras: [
    ["Hedge trimming", "Front and side hedges", 60],
    ["Leaf cleanup", "Beds and lawn", 85],
    ["Mulch refresh", "Two cubic yards, installed", 140],
    ["Sprinkler head repair", "Replace broken heads", 35],
  ],
  leadTags: ["spring-promo", "referral", "hoa", "new-build", "door-knock", "drought"],
  customerTags: ["vip", "hoa", "gate-code", "dog-in-yard"],
  customLabels: ["Growing season (Mar–Oct)", "Every 10 days in summer"],
  pinTypes: [
    ["pt_lawn_not_home", "Not home", "#9e9e9e", 35],
    ["pt_lawn_not_interested", "Not interested", "#c62828", 25],
    ["pt_lawn_interested", "Interested", "#2e7d32", 15],
    ["pt_lawn_come_back", "Come back later", "#f9a825", 15],
    ["pt_lawn_sold", "Sold", "#1565c0", 10],
  ],
};

/** Days between visits (and the default number of visits a year, contract section 7). */
const INTERVAL_DAYS: Record<PlanFrequency, number> = {
  "One-Time": 0,
  Annual: 365,
  "Semi-Annual": 182,
  "Tri-Annual": 121,
  Quarterly: 91,
  "Bi-Monthly": 61,
  Monthly: 30,
  "Bi-Weekly": 14,
  Weekly: 7,
  Custom: 42,
};
const VISITS_PER_YEAR: Record<PlanFrequency, number> = {
  "One-Time": 1,
  Annual: 1,
  "Semi-Annual": 2,
  "Tri-Annual": 3,
  Quarterly: 4,
  "Bi-Monthly": 6,
  Monthly: 12,
  "Bi-Weekly": 26,
  Weekly: 52,
  Custom: 6,
};
/** Keeps the demo small: the most recent jobs of a long-running plan. */
const MAX_JOBS_PER_PLAN = 10;

const LEAD_STAGES = [
  ["new", 25],
  ["contacted", 25],
  ["quoted", 20],
  ["won", 15],
  ["lost", 15],
] as const;
const LEAD_SOURCES = [
  ["Website", 30],
  ["Door to door", 20],
  ["Referral", 15],
  ["Google Ads", 12],
  ["Phone call", 10],
  ["Yelp", 7],
  ["Facebook", 6],
] as const;
const LEAD_NOTES = [
  "Saw ants in the kitchen, wants a quote this week.",
  "Prefers text messages after 5 pm.",
  "Neighbor is a current customer.",
  "Asked about pet-safe products.",
  "Has a locked side gate; call before arriving.",
  "Comparing with two other companies.",
  "Rental property; owner approves the work.",
  "Interested in a yearly plan if the price is right.",
];
const CUSTOMER_NOTES = [
  "Dog in the backyard; knock first.",
  "Gate code 4821.",
  "Prefers morning appointments.",
  "Invoice the property manager.",
  "Park on the street, not the driveway.",
];

const iso = (ms: number) => new Date(ms).toISOString();
const anchor = DEMO_ANCHOR.getTime();

class CompanyBuilder {
  private readonly random: Random;
  private readonly companyId: string;
  private readonly usedPhones = new Set<string>();
  private readonly usedEmails = new Set<string>();
  private readonly reps: string[];
  private readonly sellers: string[];
  private readonly techs: string[];
  private readonly formerTechs: string[];
  private businessIndex = 0;

  constructor(
    private readonly profile: CompanyProfile,
    private readonly doc: Required<ImportDocument>,
  ) {
    this.random = new Random(profile.seed);
    this.companyId = DEMO_COMPANIES[profile.key].id;
    const users = DEMO_USERS.filter((u) => u.companyId === this.companyId);
    this.reps = users.filter((u) => u.role === "sales_rep").map((u) => u.id);
    this.sellers = [...this.reps, ...users.filter((u) => u.role === "manager").map((u) => u.id)];
    this.techs = users.filter((u) => u.role === "technician" && u.active).map((u) => u.id);
    this.formerTechs = users.filter((u) => u.role === "technician" && !u.active).map((u) => u.id);
  }

  build() {
    this.pinTypesAndPins();
    this.leads();
    const customers = this.customers();
    for (const customer of customers) this.plansAndJobs(customer);
    this.otherJobs(customers);
  }

  /** A daytime moment (Austin business hours, 8:00-18:00 CST = 14:00-24:00 UTC) `days` before the anchor. */
  private daysAgo(days: number): number {
    const day = Math.floor((anchor - days * DAY) / DAY) * DAY;
    return day + 14 * HOUR + this.random.int(0, 9 * 60) * 60_000;
  }

  /** Recent days are busier: more records were made lately. */
  private recentDays(maxDays: number): number {
    return Math.floor(Math.pow(this.random.next(), 1.6) * maxDays) + 1;
  }

  private person() {
    const r = this.random;
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    let phone: string;
    do phone = `(${r.pick(["512", "512", "737"])}) 555-${String(r.int(0, 9999)).padStart(4, "0")}`;
    while (this.usedPhones.has(phone));
    this.usedPhones.add(phone);
    let email: string;
    let n = 0;
    do {
      const local = r.pick([
        `${first}.${last}`,
        `${first[0]}${last}`,
        `${first}${last[0]}`,
        `${first}_${last}`,
      ]);
      email = `${local.toLowerCase()}${n > 0 ? n : ""}@${r.pick(EMAIL_DOMAINS)}`;
      n += r.int(1, 9);
    } while (this.usedEmails.has(email));
    this.usedEmails.add(email);
    return { first, last, phone, email };
  }

  private address() {
    const r = this.random;
    const area = r.pick(AUSTIN_AREAS);
    const apartment = r.chance(0.12);
    return {
      street1: `${r.int(100, 12999)} ${r.pick(area.streets)}`,
      street2: apartment ? `Apt ${r.int(101, 420)}` : null,
      city: area.city,
      state: "TX",
      zip: area.zip,
      country: "US",
      location: [
        Math.round((area.center[0] + r.float(-0.018, 0.018)) * 1e6) / 1e6,
        Math.round((area.center[1] + r.float(-0.018, 0.018)) * 1e6) / 1e6,
      ] as [number, number],
    };
  }

  private pinTypesAndPins() {
    const r = this.random;
    for (const [id, label, color] of this.profile.pinTypes)
      this.doc.pin_types.push({ id, company_id: this.companyId, label, color });
    const weights = this.profile.pinTypes.map(([id, , , w]) => [id, w] as const);
    const canvassers = [...this.reps, ...this.reps, ...this.sellers];
    const pins: Pin[] = [];
    for (let i = 0; i < this.profile.pins; i++) {
      // Reps canvass one neighborhood at a time: pins come in streets-worth clusters.
      const area = r.pick(AUSTIN_AREAS);
      const createdAt = this.daysAgo(this.recentDays(365));
      pins.push({
        id: seededId("pin", new Date(createdAt), r),
        company_id: this.companyId,
        pin_type_id: r.weighted(weights),
        created_by: r.pick(canvassers),
        location: [
          Math.round((area.center[0] + r.float(-0.02, 0.02)) * 1e6) / 1e6,
          Math.round((area.center[1] + r.float(-0.02, 0.02)) * 1e6) / 1e6,
        ],
        created_at: iso(createdAt),
      });
    }
    this.doc.pins.push(...pins);
  }

  private leads() {
    const r = this.random;
    const p = this.profile;
    for (let i = 0; i < p.leads; i++) {
      const who = this.person();
      const stage = r.weighted(LEAD_STAGES);
      const createdAt = this.daysAgo(this.recentDays(540));
      const hasAddress = r.chance(0.85);
      const address = hasAddress ? this.address() : null;
      const archived = stage === "lost" ? r.chance(0.5) : r.chance(0.03);
      const open = stage === "new" || stage === "contacted" || stage === "quoted";
      const lead: Lead = {
        id: seededId("lead", new Date(createdAt), r),
        company_id: this.companyId,
        name: `${who.first} ${who.last}`,
        email: r.chance(0.8) ? who.email : null,
        phone: r.chance(0.85) ? who.phone : null,
        property_street1: address?.street1 ?? null,
        property_street2: address?.street2 ?? null,
        property_city: address?.city ?? null,
        property_state: address?.state ?? null,
        property_zip: address?.zip ?? null,
        property_country: address?.country ?? null,
        priority: r.weighted([
          ["low", 30],
          ["medium", 40],
          ["high", 20],
          [null, 10],
        ] as const),
        projected_value: r.chance(0.85) ? r.dollars(120, 3500) : null,
        value_score: r.chance(0.8) ? r.int(1, 100) : null,
        service_type: r.pick(p.serviceTypes),
        lead_source: r.weighted(LEAD_SOURCES),
        stage,
        // Picked by position, not by the random stream, so the rest of the demo data stays as it was.
        lost_reason: stage === "lost" ? DEFAULT_LOST_REASONS[i % DEFAULT_LOST_REASONS.length]! : null,
        tags: r.some(
          p.leadTags,
          r.weighted([
            [0, 30],
            [1, 40],
            [2, 20],
            [3, 10],
          ] as const),
        ),
        notes: r.chance(0.3) ? r.pick(LEAD_NOTES) : null,
        follow_up_date: open && r.chance(0.7) ? iso(this.daysAgo(-r.int(-10, 30))) : null,
        assigned_to: r.chance(0.9) ? r.pick(this.reps) : null,
        archived,
        archived_at: archived ? iso(Math.min(anchor - HOUR, createdAt + r.int(1, 60) * DAY)) : null,
        created_at: iso(createdAt),
        location: address?.location ?? null,
      };
      this.doc.leads.push(lead);
    }
  }

  private customers(): { customer: Customer; createdAt: number; active: boolean }[] {
    const r = this.random;
    const p = this.profile;
    const out: { customer: Customer; createdAt: number; active: boolean }[] = [];
    for (let i = 0; i < p.customers; i++) {
      const who = this.person();
      const createdAt = this.daysAgo(this.recentDays(720));
      const address = this.address();
      const commercial = r.chance(0.12) && this.businessIndex < BUSINESS_NAMES.length;
      const sameBilling = r.chance(0.85);
      const status = r.chance(0.1) ? "inactive" : "active";
      const archived = r.chance(0.05);
      const autoPay = r.chance(0.4);
      const customer: Customer = {
        id: seededId("cus", new Date(createdAt), r),
        company_id: this.companyId,
        first_name: who.first,
        last_name: who.last,
        company_name: commercial ? BUSINESS_NAMES[this.businessIndex++]! : null,
        email: r.chance(0.9) ? who.email : null,
        phone: r.chance(0.95) ? who.phone : null,
        notes: r.chance(0.25) ? r.pick(CUSTOMER_NOTES) : null,
        source: r.weighted(LEAD_SOURCES),
        property_street1: address.street1,
        property_street2: address.street2,
        property_city: address.city,
        property_state: address.state,
        property_zip: address.zip,
        property_country: address.country,
        billing_same_as_property: sameBilling,
        ...(sameBilling
          ? {}
          : {
              billing_street1: `PO Box ${r.int(1000, 99999)}`,
              billing_city: "Austin",
              billing_state: "TX",
              billing_zip: r.pick(["78711", "78714", "78755", "78760", "78768"]),
              billing_country: "US",
            }),
        service_type: r.pick(p.serviceTypes),
        status,
        tags: [...(commercial ? ["commercial"] : []), ...r.some(p.customerTags, r.int(0, 2))].filter(
          (t, idx, all) => all.indexOf(t) === idx,
        ),
        archived,
        archived_at: archived ? iso(Math.min(anchor - HOUR, createdAt + r.int(30, 300) * DAY)) : null,
        created_at: iso(createdAt),
        location: address.location,
        is_auto_pay: autoPay,
        has_payment_method: autoPay || r.chance(0.25),
      };
      this.doc.customers.push(customer);
      out.push({ customer, createdAt, active: status === "active" && !archived });
    }
    return out;
  }

  private planCount = 0;

  private plansAndJobs(entry: { customer: Customer; createdAt: number; active: boolean }) {
    const r = this.random;
    const { customer } = entry;
    const plans = r.weighted([
      [0, 22],
      [1, 68],
      [2, 10],
    ] as const);
    if (plans === 0) {
      if (r.chance(0.5)) this.oneOffJob(entry);
      return;
    }
    for (let k = 0; k < plans; k++) {
      // The first plans go through every frequency, so each one is in the demo.
      const frequency =
        this.planCount < PLAN_FREQUENCIES.length
          ? PLAN_FREQUENCIES[this.planCount]!
          : r.weighted(this.profile.frequencyWeights);
      this.planCount++;
      const [low, high] = this.profile.prices[frequency];
      const custom = frequency === "Custom";
      const totalVisits = custom
        ? r.int(4, 9)
        : frequency !== "One-Time" && r.chance(0.15)
          ? Math.max(1, VISITS_PER_YEAR[frequency] - r.int(1, 3))
          : null;
      // Frequent plans start recently, so their jobs reach up to today.
      const maxStartDays = INTERVAL_DAYS[frequency] * Math.min(MAX_JOBS_PER_PLAN - 2, 6) || 400;
      const earliest = Math.max(entry.createdAt, anchor - maxStartDays * DAY);
      const spareDays = Math.max(0, Math.min(20, Math.floor((anchor - DAY - earliest) / DAY)));
      const planCreated = earliest + r.int(0, spareDays) * DAY + r.int(1, 300) * 60_000;
      const startDate = planCreated + r.int(1, 14) * DAY;
      const active = entry.active && r.chance(0.88);
      const plan: Plan = {
        id: seededId("plan", new Date(planCreated), r),
        company_id: this.companyId,
        customer_id: customer.id!,
        sold_by: r.chance(0.92) ? r.pick(this.sellers) : null,
        frequency,
        custom_frequency_label: custom ? r.pick(this.profile.customLabels) : null,
        service_type: customer.service_type ?? r.pick(this.profile.serviceTypes),
        start_date: iso(startDate).slice(0, 10),
        active,
        created_at: iso(planCreated),
        total_visits: totalVisits,
        price_per_visit: r.dollars(low, high, 1),
      };
      this.doc.service_plans.push(plan);
      if (k === 0) customer.service_frequency = custom ? plan.custom_frequency_label : frequency;
      this.planJobs(plan, planCreated, startDate, active, totalVisits ?? VISITS_PER_YEAR[frequency], entry);
    }
  }

  private planJobs(
    plan: Plan,
    planCreated: number,
    startDate: number,
    active: boolean,
    visits: number,
    entry: { customer: Customer },
  ) {
    const r = this.random;
    const interval = INTERVAL_DAYS[plan.frequency];
    const stopAt = active ? anchor + 45 * DAY : anchor - r.int(10, 120) * DAY;
    const dates: number[] = [];
    for (let t = startDate; dates.length < visits && t < stopAt; t += Math.max(interval, 1) * DAY) {
      dates.push(t);
      if (interval === 0) break;
    }
    for (const visitAt of dates.slice(-MAX_JOBS_PER_PLAN)) {
      const start = Math.floor(visitAt / DAY) * DAY + 14 * HOUR + r.int(0, 16) * 30 * 60_000;
      this.job(entry.customer, plan, start, Math.max(planCreated, start - r.int(7, 30) * DAY), planCreated);
    }
  }

  private oneOffJob(entry: { customer: Customer; createdAt: number }) {
    const r = this.random;
    const start = Math.max(entry.createdAt + DAY, this.daysAgo(this.recentDays(400)));
    this.job(
      entry.customer,
      null,
      start,
      Math.max(entry.createdAt, start - r.int(2, 20) * DAY),
      entry.createdAt,
    );
  }

  private jobStatus(start: number): Job["status"] {
    const r = this.random;
    if (start < anchor - 12 * HOUR) return r.chance(0.93) ? "Completed" : "Cancelled";
    if (start <= anchor + 2 * HOUR) return "In Progress";
    return r.chance(0.9) ? "Scheduled" : "Unscheduled";
  }

  private job(
    customer: Customer,
    plan: Plan | null,
    start: number,
    createdAt: number,
    notBefore: number,
    options: { quote?: boolean; archived?: boolean } = {},
  ): Job {
    const r = this.random;
    const status = options.quote ? "Unscheduled" : this.jobStatus(start);
    // A job planned far ahead was created in the last few days (never after "now").
    const created =
      createdAt <= anchor - HOUR ? createdAt : Math.max(notBefore, anchor - r.int(60, 72 * 60) * 60_000);
    const serviceType = plan?.service_type ?? customer.service_type ?? r.pick(this.profile.serviceTypes);
    const price =
      plan?.price_per_visit ??
      r.dollars(this.profile.prices["One-Time"][0], this.profile.prices["One-Time"][1], 1);
    const lineItems: NonNullable<Job["line_items"]> = [
      {
        title: plan
          ? `${plan.frequency === "Custom" ? plan.custom_frequency_label : plan.frequency} ${serviceType} service`
          : `${serviceType} service`,
        description: plan ? "Scheduled visit under the service plan" : "One-time service",
        total_price: price,
      },
    ];
    if (r.chance(0.25)) {
      const [title, description, extra] = r.pick(this.profile.extras);
      lineItems.push({ title, description, total_price: extra });
    }
    const visits: NonNullable<Job["visits"]> = [];
    if (status !== "Unscheduled") {
      visits.push({ start: iso(start), end: iso(start + r.int(2, 8) * 15 * 60_000) });
      if (r.chance(0.1)) {
        const followUp = start + r.int(1, 7) * DAY;
        visits.push({ start: iso(followUp), end: iso(followUp + r.int(2, 4) * 15 * 60_000) });
      }
    }
    const lead =
      start < anchor - 60 * DAY && this.formerTechs.length > 0 && r.chance(0.15)
        ? r.pick(this.formerTechs)
        : r.pick(this.techs);
    const crew = r.weighted([
      [0, 75],
      [1, 20],
      [2, 5],
    ] as const);
    const total = lineItems.reduce((sum, li) => sum + li.total_price, 0);
    const job: Job = {
      id: seededId("job", new Date(created), r),
      company_id: this.companyId,
      customer_id: customer.id!,
      service_plan_id: plan?.id ?? null,
      status,
      is_quote: options.quote ?? false,
      archived: options.archived ?? false,
      created_at: iso(created),
      assigned_to: status === "Unscheduled" && r.chance(0.5) ? null : lead,
      crew: r.some(
        this.techs.filter((t) => t !== lead),
        crew,
      ),
      visits,
      line_items: lineItems,
      payments: options.quote ? [] : this.payments(status, start, total, customer.is_auto_pay ?? false),
    };
    this.doc.jobs.push(job);
    return job;
  }

  private payments(status: Job["status"], start: number, total: number, autoPay: boolean) {
    const r = this.random;
    const out: NonNullable<Job["payments"]> = [];
    const method = () =>
      autoPay
        ? r.weighted([
            ["card", 70],
            ["ach", 30],
          ] as const)
        : r.weighted([
            ["card", 45],
            ["check", 20],
            ["ach", 15],
            ["cash", 10],
            ["other", 10],
          ] as const);
    const at = (days: number) => iso(Math.min(anchor - HOUR, start + days * DAY + r.int(1, 8) * HOUR));
    const pay = (
      amount: number,
      type: "payment" | "refund",
      state: "succeeded" | "pending" | "failed",
      days = 0,
    ) =>
      out.push({
        amount,
        payment_date: at(days),
        payment_method: method(),
        payment_type: type,
        status: state,
      });
    if (status === "Cancelled") {
      if (r.chance(0.2)) {
        pay(total, "payment", "succeeded", -3);
        pay(total, "refund", "succeeded", 1);
      }
      return out;
    }
    if (status !== "Completed") return out;
    if (start > anchor - 4 * DAY && r.chance(0.6)) {
      pay(total, "payment", "pending");
      return out;
    }
    const outcome = r.weighted([
      ["paid", 72],
      ["unpaid", 10],
      ["partial", 5],
      ["failed-then-paid", 5],
      ["failed", 3],
      ["refunded", 5],
    ] as const);
    if (outcome === "paid") pay(total, "payment", "succeeded", r.int(0, 3));
    else if (outcome === "partial") pay(Math.round(total * 0.5), "payment", "succeeded", r.int(0, 3));
    else if (outcome === "failed-then-paid") {
      pay(total, "payment", "failed", 0);
      pay(total, "payment", "succeeded", r.int(1, 5));
    } else if (outcome === "failed") pay(total, "payment", "failed", 0);
    else if (outcome === "refunded") {
      pay(total, "payment", "succeeded", 0);
      pay(r.chance(0.5) ? total : Math.round(total * 0.3), "refund", "succeeded", r.int(2, 10));
    }
    return out;
  }

  /** Quotes, archived jobs and jobs under way right now: each kind is in the demo. */
  private otherJobs(customers: { customer: Customer; createdAt: number }[]) {
    const r = this.random;
    for (let i = 0; i < this.profile.jobsToday; i++) {
      const entry = r.pick(customers);
      const start = anchor - r.int(1, 4) * 30 * 60_000;
      this.job(
        entry.customer,
        null,
        start,
        Math.max(entry.createdAt, start - r.int(2, 10) * DAY),
        entry.createdAt,
      );
    }
    for (let i = 0; i < this.profile.quotes; i++) {
      const entry = r.pick(customers);
      const created = Math.max(entry.createdAt, this.daysAgo(r.int(1, 60)));
      this.job(entry.customer, null, created + r.int(3, 20) * DAY, created, entry.createdAt, { quote: true });
    }
    for (let i = 0; i < this.profile.archivedJobs; i++) {
      const entry = r.pick(customers);
      const start = Math.max(entry.createdAt + DAY, this.daysAgo(r.int(90, 400)));
      this.job(entry.customer, null, start, start - r.int(2, 10) * DAY, entry.createdAt, { archived: true });
    }
  }
}

/**
 * The demo data as an import document (contract section 10): two Austin, TX companies with every
 * kind of record. A seeded generator and fixed anchor date make every call return the same document.
 */
export function buildDemoDocument(): Required<ImportDocument> {
  const doc: Required<ImportDocument> = {
    companies: [],
    users: [],
    api_keys: [],
    pin_types: [],
    pins: [],
    customers: [],
    leads: [],
    service_plans: [],
    jobs: [],
  };
  const founded = anchor - 900 * DAY;
  for (const company of Object.values(DEMO_COMPANIES))
    doc.companies.push({ id: company.id, name: company.name, created_at: iso(founded) });
  DEMO_USERS.forEach((user, i) =>
    doc.users.push({
      id: user.id,
      company_id: user.companyId,
      name: user.name,
      email: user.email,
      role: user.role,
      password: DEMO_PASSWORD,
      active: user.active,
      created_at: iso(founded + i * HOUR),
    }),
  );
  doc.api_keys.push({
    company_id: DEMO_COMPANIES.pest.id,
    name: DEMO_API_KEY_NAME,
    key: DEMO_API_KEY,
    scopes: [...DEMO_API_KEY_SCOPES],
    daily_limit: DEFAULT_DAILY_LIMIT,
    created_at: iso(founded + DAY),
  });
  for (const profile of [PEST, LAWN]) new CompanyBuilder(profile, doc).build();
  return doc;
}

import type { TenantSize } from "../scales";
import {
  ANCHOR_MS,
  DAY_MS,
  SPAN_MS,
  chance,
  createdMs,
  h,
  lit,
  money,
  pick,
  recordId,
  recordIdOf,
  tagArray,
  timestampOf,
  weighted,
} from "./sql";
import {
  AREA_CODES,
  CITIES,
  COMPANY_SUFFIXES,
  CUSTOMER_SOURCES,
  CUSTOMER_TAGS,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  LAST_NAMES,
  LEAD_SOURCES,
  LEAD_STAGES,
  LEAD_TAGS,
  LINE_ITEM_TITLES,
  NOTES,
  PIN_TYPES,
  PLAN_FREQUENCIES,
  RARE_ROWS,
  RARE_SURNAME,
  SERVICE_TYPES,
  STREETS,
  STREET_SUFFIXES,
} from "./vocabulary";

const HOUR_MS = 3_600_000;

/** Salts of the creation times, one per table, so tables do not share their jitter. */
const SALT = { leads: 1, customers: 2, plans: 3, jobs: 4, pins: 5 } as const;

/**
 * The INSERT statements of one tenant. Tenant 0 is the large tenant of the cases; 1..n are the
 * small ones. Each method answers one statement for rows lo..hi of its table.
 */
export class TenantSql {
  readonly companyId: string;
  private readonly tenantHex: string;

  constructor(
    readonly tenant: number,
    readonly size: TenantSize,
  ) {
    this.tenantHex = tenant.toString(16).padStart(2, "0");
    this.companyId = recordIdOf("co", tenant, ANCHOR_MS - SPAN_MS - 60 * DAY_MS, 0);
  }

  private get userCount(): number {
    const u = this.size.users;
    return u.admin + u.manager + u.sales_rep + u.technician;
  }

  // ---- ids of rows, recomputed wherever another row refers to them ----

  userMs(n: string): string {
    return `(${ANCHOR_MS - SPAN_MS - 30 * DAY_MS}::bigint + (${n}) * 60000)`;
  }
  userId(n: string): string {
    return recordId("usr", this.tenant, this.userMs(n), n);
  }
  /** i in 0..sales_rep-1 */
  salesRepId(i: string): string {
    const u = this.size.users;
    return this.userId(`(${u.admin + u.manager + 1} + ${i})`);
  }
  /** i in 0..technician-1 */
  technicianId(i: string): string {
    const u = this.size.users;
    return this.userId(`(${u.admin + u.manager + u.sales_rep + 1} + ${i})`);
  }
  pinTypeId(n: string): string {
    return recordId("pt", this.tenant, this.userMs(n), n);
  }
  leadMs(n: string): string {
    return createdMs(this.size.leads, n, SALT.leads);
  }
  customerMs(n: string): string {
    return createdMs(this.size.customers, n, SALT.customers);
  }
  customerId(n: string): string {
    return recordId("cus", this.tenant, this.customerMs(n), n);
  }
  planMs(n: string): string {
    return createdMs(this.size.servicePlans, n, SALT.plans);
  }
  planId(n: string): string {
    return recordId("plan", this.tenant, this.planMs(n), n);
  }
  jobMs(n: string): string {
    return createdMs(this.size.jobs, n, SALT.jobs);
  }
  jobId(n: string): string {
    return recordId("job", this.tenant, this.jobMs(n), n);
  }

  // ---- statements ----

  company(): string {
    const name = this.tenant === 0 ? "Bench Pest & Lawn (large)" : `Bench Small Tenant ${this.tenant}`;
    return `insert into companies (id, name, created_at) values (${lit(this.companyId)}, ${lit(name)}, ${timestampOf(
      String(ANCHOR_MS - SPAN_MS - 60 * DAY_MS),
    )})`;
  }

  users(): string {
    const u = this.size.users;
    const role = `case when n <= ${u.admin} then 'admin' when n <= ${u.admin + u.manager} then 'manager'
      when n <= ${u.admin + u.manager + u.sales_rep} then 'sales_rep' else 'technician' end`;
    return `insert into users (company_id, id, name, email, email_normalized, role, password_hash, active, created_at, updated_at)
      select ${lit(this.companyId)}, ${this.userId("n")}, fn || ' ' || ln, email, email, ${role}, null, true,
        ${timestampOf(this.userMs("n"))}, ${timestampOf(this.userMs("n"))}
      from (select n, ${pick(FIRST_NAMES, "n", 11)} as fn, ${pick(LAST_NAMES, "n", 12)} as ln,
              'user' || n || '.t' || ${lit(this.tenantHex)} || '@bench.example' as email
            from generate_series(1::bigint, ${this.userCount}::bigint) g(n)) x`;
  }

  pinTypes(): string {
    const types = PIN_TYPES.slice(0, this.size.pinTypes);
    const values = types.map(([label, color], i) => {
      const n = String(i + 1);
      return `(${lit(this.companyId)}, ${this.pinTypeId(n)}, ${lit(label)}, ${lit(color)})`;
    });
    return `insert into pin_types (company_id, id, label, color) values ${values.join(", ")}`;
  }

  /** Phone parts of row n: the formatted phone (5% none) and its digits, as lib/values/normalize.ts makes them. */
  private phoneColumns(n: string, salt: number): string {
    return `${pick(AREA_CODES, n, salt)} as area, (200 + ${h(n, salt + 1)} % 800)::text as exch,
      lpad((${h(n, salt + 2)} % 10000)::text, 4, '0') as line, ${h(n, salt + 3)} % 100 as fmt,
      ${chance(50, n, salt + 4)} as no_phone`;
  }
  private static readonly PHONE = `case when no_phone then null
      when fmt < 60 then '(' || area || ') ' || exch || '-' || line
      when fmt < 85 then area || '-' || exch || '-' || line
      else '+1 ' || area || ' ' || exch || ' ' || line end`;
  private static readonly PHONE_DIGITS = `case when no_phone then null else area || exch || line end`;

  private addressColumns(n: string, salt: number): string {
    const cities = CITIES.length;
    return `${h(n, salt)} % ${cities} as ci,
      (1 + ${h(n, salt + 1)} % 9899)::text || ' ' || ${pick(STREETS, n, salt + 2)} || ' ' || ${pick(
        STREET_SUFFIXES,
        n,
        salt + 3,
      )} as street1,
      case when ${chance(100, n, salt + 4)} then 'Apt ' || (1 + ${h(n, salt + 5)} % 300) end as street2,
      lpad((${h(n, salt + 6)} % 100)::text, 2, '0') as zip_tail,
      ((${h(n, salt + 7)} % 4000) - 2000) / 10000.0 as dlat, ((${h(n, salt + 8)} % 4000) - 2000) / 10000.0 as dlng`;
  }
  private static readonly CITY = `(array[${CITIES.map((c) => lit(c[0])).join(", ")}])[ci + 1]`;
  private static readonly STATE = `(array[${CITIES.map((c) => lit(c[1])).join(", ")}])[ci + 1]`;
  private static readonly ZIP = `(array[${CITIES.map((c) => lit(c[2])).join(", ")}])[ci + 1] || zip_tail`;
  private static readonly LAT = `(array[${CITIES.map((c) => c[3]).join(", ")}]::double precision[])[ci + 1] + dlat`;
  private static readonly LNG = `(array[${CITIES.map((c) => c[4]).join(", ")}]::double precision[])[ci + 1] + dlng`;

  /** The rare surname on exactly RARE_ROWS rows of the large tenant. */
  private lastName(n: string, count: number, salt: number): string {
    const step = Math.floor(count / RARE_ROWS);
    const normal = pick(LAST_NAMES, n, salt);
    return this.tenant === 0 && step > 3
      ? `case when ${n} % ${step} = 3 then ${lit(RARE_SURNAME)} else ${normal} end`
      : normal;
  }

  private email(n: string, salt: number): string {
    return `case when ${chance(80, n, salt)} then null
      when ${chance(100, n, salt + 1)} then fn || '.' || ln || ${n} || '@' || ${pick(EMAIL_DOMAINS, n, salt + 2)}
      else lower(fn) || '.' || lower(ln) || ${n} || '@' || ${pick(EMAIL_DOMAINS, n, salt + 2)} end`;
  }

  leads(lo: number, hi: number): string {
    const s = this.size;
    return `insert into leads (company_id, id, name, email, email_normalized, phone, phone_normalized,
        property_street1, property_street2, property_city, property_state, property_zip, property_country,
        priority, projected_value, value_score, service_type, lead_source, stage, tags, notes, follow_up_date,
        assigned_to, archived, archived_at, created_at, updated_at, latitude, longitude)
      select ${lit(this.companyId)}, ${recordId("lead", this.tenant, "ms", "n")}, fn || ' ' || ln, email, lower(email),
        ${TenantSql.PHONE}, ${TenantSql.PHONE_DIGITS},
        street1, street2, ${TenantSql.CITY}, ${TenantSql.STATE}, ${TenantSql.ZIP}, 'US',
        case when pr < 25 then 'low' when pr < 60 then 'medium' when pr < 80 then 'high' end,
        case when ${chance(850, "n", 40)} then ${money(200, 19800, "n", 41)} end,
        case when ${chance(700, "n", 43)} then (${h("n", 44)} % 10000) / 100.0 end,
        ${weighted(SERVICE_TYPES, "n", 45)}, ${weighted(LEAD_SOURCES, "n", 46)},
        case when ${chance(10, "n", 47)} then null else ${weighted(LEAD_STAGES, "n", 48)} end,
        ${tagArray(LEAD_TAGS, "n", 100)},
        case when ${chance(300, "n", 49)} then ${pick(NOTES, "n", 50)} end,
        case when ${chance(400, "n", 51)} then ${timestampOf(`ms + (1 + ${h("n", 52)} % 30) * ${DAY_MS}`)} end,
        case when ${chance(850, "n", 53)} then ${this.salesRepId(`${h("n", 54)} % ${s.users.sales_rep}`)} end,
        archived, case when archived then ${timestampOf(`ms + (30 + ${h("n", 55)} % 150) * ${DAY_MS}`)} end,
        ${timestampOf("ms")}, ${timestampOf(`ms + (${h("n", 56)} % 10) * ${DAY_MS}`)},
        case when ${chance(900, "n", 57)} then ${TenantSql.LAT} end,
        case when ${chance(900, "n", 57)} then ${TenantSql.LNG} end
      from (
        select n, ms, fn, ln, ${this.email("n", 30)} as email, area, exch, line, fmt, no_phone,
          ci, street1, street2, zip_tail, dlat, dlng, pr, archived
        from (
          select n, ${this.leadMs("n")} as ms, ${pick(FIRST_NAMES, "n", 20)} as fn,
            ${this.lastName("n", s.leads, 21)} as ln, ${this.phoneColumns("n", 22)}, ${this.addressColumns("n", 60)},
            ${h("n", 39)} % 100 as pr, ${chance(80, "n", 38)} as archived
          from generate_series(${lo}::bigint, ${hi}::bigint) g(n)
        ) a
      ) b`;
  }

  customers(lo: number, hi: number): string {
    const freqNames = PLAN_FREQUENCIES.filter(([f]) => f !== "Custom");
    return `insert into customers (company_id, id, first_name, last_name, company_name, email, email_normalized,
        phone, phone_normalized, notes, source,
        property_street1, property_street2, property_city, property_state, property_zip, property_country,
        billing_street1, billing_street2, billing_city, billing_state, billing_zip, billing_country,
        billing_same_as_property, service_frequency, service_type, status, tags, archived, archived_at,
        is_auto_pay, has_payment_method, created_at, updated_at, latitude, longitude)
      select ${lit(this.companyId)}, ${this.customerId("n")}, fn, ln,
        case when business then ln || ' ' || ${pick(COMPANY_SUFFIXES, "n", 131)} end,
        email, lower(email), ${TenantSql.PHONE}, ${TenantSql.PHONE_DIGITS},
        case when ${chance(250, "n", 132)} then ${pick(NOTES, "n", 133)} end, ${weighted(CUSTOMER_SOURCES, "n", 134)},
        street1, street2, ${TenantSql.CITY}, ${TenantSql.STATE}, ${TenantSql.ZIP}, 'US',
        case when billing < 65 then street1 when billing < 85 then 'PO Box ' || (100 + ${h("n", 135)} % 9000) end,
        case when billing < 65 then street2 end,
        case when billing < 85 then ${TenantSql.CITY} end, case when billing < 85 then ${TenantSql.STATE} end,
        case when billing < 85 then ${TenantSql.ZIP} end, case when billing < 85 then 'US' end,
        billing < 65, ${weighted(freqNames, "n", 136)}, ${weighted(SERVICE_TYPES, "n", 137)},
        case when ${chance(150, "n", 138)} then 'inactive' else 'active' end,
        ${tagArray(CUSTOMER_TAGS, "n", 150)}, archived,
        case when archived then ${timestampOf(`ms + (30 + ${h("n", 139)} % 150) * ${DAY_MS}`)} end,
        auto_pay, auto_pay or ${chance(300, "n", 140)},
        ${timestampOf("ms")}, ${timestampOf(`ms + (${h("n", 141)} % 10) * ${DAY_MS}`)},
        case when ${chance(950, "n", 142)} then ${TenantSql.LAT} end,
        case when ${chance(950, "n", 142)} then ${TenantSql.LNG} end
      from (
        select n, ms, fn, ln, ${this.email("n", 120)} as email, area, exch, line, fmt, no_phone,
          ci, street1, street2, zip_tail, dlat, dlng, business, billing, archived, auto_pay
        from (
          select n, ${this.customerMs("n")} as ms, ${pick(FIRST_NAMES, "n", 110)} as fn,
            ${this.lastName("n", this.size.customers, 111)} as ln, ${this.phoneColumns("n", 112)},
            ${this.addressColumns("n", 160)}, ${chance(200, "n", 117)} as business,
            ${h("n", 118)} % 100 as billing, ${chance(50, "n", 119)} as archived,
            ${chance(400, "n", 121)} as auto_pay
          from generate_series(${lo}::bigint, ${hi}::bigint) g(n)
        ) a
      ) b`;
  }

  /** Customer (1-based) of plan p: the jobs of the plan belong to the same customer. */
  planCustomer(p: string): string {
    return `(1 + ${h(p, 301)} % ${this.size.customers})`;
  }

  servicePlans(lo: number, hi: number): string {
    const s = this.size;
    return `insert into service_plans (company_id, id, customer_id, sold_by, frequency, custom_frequency_label,
        service_type, start_date, active, total_visits, price_per_visit, created_at)
      select ${lit(this.companyId)}, ${this.planId("n")}, ${this.customerId(this.planCustomer("n"))},
        case when ${chance(950, "n", 302)} then ${this.salesRepId(`${h("n", 303)} % ${s.users.sales_rep}`)} end,
        freq, case when freq = 'Custom' then 'Every ' || (3 + ${h("n", 304)} % 6) || ' weeks' end,
        ${weighted(SERVICE_TYPES, "n", 305)},
        ${timestampOf(`ms + (${h("n", 306)} % 30) * ${DAY_MS}`)}, ${chance(800, "n", 307)},
        case when freq = 'Custom' then 4 + ${h("n", 308)} % 12 when ${chance(150, "n", 309)} then 1 + ${h("n", 310)} % 12 end,
        ${money(45, 355, "n", 311)}, ${timestampOf("ms")}
      from (
        select n, ${this.planMs("n")} as ms, ${weighted(PLAN_FREQUENCIES, "n", 312)} as freq
        from generate_series(${lo}::bigint, ${hi}::bigint) g(n)
      ) a`;
  }

  /**
   * The values every job statement shares, as columns of a subquery over jobs lo..hi. Plan jobs
   * are numbered next to their plan, so they are created when it is sold, as a scheduler would.
   */
  private jobValues(lo: number, hi: number): string {
    const s = this.size;
    const plans = s.servicePlans;
    const day = DAY_MS;
    return `select n, ms, vstart, status, plan,
        case when status = 'Unscheduled' then 0 when ${chance(200, "n", 207)} then 2 else 1 end as visits,
        1 + ${h("n", 230)} % 3 as items, tech
      from (
        select n, ms, vstart, plan, ${h("n", 221)} % ${s.users.technician} as tech,
          case when vstart < ${ANCHOR_MS}::bigint then
            case when r < 85 then 'Completed' when r < 92 then 'Cancelled' when r < 96 then 'Scheduled'
              when r < 98 then 'In Progress' else 'Unscheduled' end
          else
            case when r < 65 then 'Scheduled' when r < 90 then 'Unscheduled' when r < 95 then 'In Progress'
              else 'Cancelled' end
          end as status
        from (
          select n, ms, ${h("n", 206)} % 100 as r,
            (ms / ${day}) * ${day} + (1 + ${h("n", 203)} % 60) * ${day} + (8 + ${h("n", 204)} % 9) * ${HOUR_MS}
              + (${h("n", 205)} % 4) * 900000 as vstart,
            case when ${plans} > 0 and ${h("n", 201)} % 10 < 7
              then least(${plans}, 1 + ((n - 1) * ${plans}) / ${s.jobs}) end as plan
          from (select n, ${this.jobMs("n")} as ms from generate_series(${lo}::bigint, ${hi}::bigint) g(n)) g
        ) a
      ) b`;
  }

  jobs(lo: number, hi: number): string {
    return `insert into jobs (company_id, id, customer_id, service_plan_id, status, is_quote, archived,
        assigned_to, service_date, created_at)
      select ${lit(this.companyId)}, ${this.jobId("n")},
        ${this.customerId(`case when plan is not null then ${this.planCustomer("plan")} else 1 + ${h("n", 202)} % ${this.size.customers} end`)},
        case when plan is not null then ${this.planId("plan")} end,
        status, ${chance(40, "n", 208)}, ${chance(30, "n", 209)},
        case when ${chance(900, "n", 220)} then ${this.technicianId("tech")} end,
        case when visits > 0 then ${timestampOf("vstart")} end, ${timestampOf("ms")}
      from (${this.jobValues(lo, hi)}) j`;
  }

  /** Visits: none for unscheduled jobs, else one or two a week apart; the first is the job's service_date. */
  jobVisits(lo: number, hi: number): string {
    return `insert into job_visits (company_id, id, job_id, starts_at, ends_at)
      select ${lit(this.companyId)}, ${recordId("vis", this.tenant, "ms", "n * 4 + k")}, ${this.jobId("n")},
        ${timestampOf(`vstart + (k - 1) * 7 * ${DAY_MS}`)},
        ${timestampOf(`vstart + (k - 1) * 7 * ${DAY_MS} + (1 + ${h("n", 210)} % 3) * ${HOUR_MS}`)}
      from (${this.jobValues(lo, hi)}) j cross join generate_series(1::bigint, 2::bigint) k
      where k <= visits`;
  }

  private linePrice(k: string): string {
    return `round((40 + ${h(`n * 4 + ${k}`, 232)} % 460 + (${h(`n * 4 + ${k}`, 233)} % 100) / 100.0)::numeric, 2)`;
  }

  jobLineItems(lo: number, hi: number): string {
    return `insert into job_line_items (company_id, id, job_id, title, description, total_price, position)
      select ${lit(this.companyId)}, ${recordId("li", this.tenant, "ms", "n * 4 + k")}, ${this.jobId("n")},
        ${pick(LINE_ITEM_TITLES, "n * 4 + k", 231)}, 'Visit ' || k || ' of ' || items, ${this.linePrice("k")}, k - 1
      from (${this.jobValues(lo, hi)}) j cross join generate_series(1::bigint, 3::bigint) k
      where k <= items`;
  }

  /**
   * Payments of completed jobs: 80% paid in full, 10% half, 10% not yet; 3% of the fully paid
   * also have a refund. Amounts follow the line items, so totals received and outstanding vary.
   */
  jobPayments(lo: number, hi: number): string {
    const total = `(${this.linePrice("1")} + case when items >= 2 then ${this.linePrice("2")} else 0 end
      + case when items >= 3 then ${this.linePrice("3")} else 0 end)`;
    return `insert into job_payments (company_id, id, job_id, amount, payment_date, payment_method, payment_type, status)
      select ${lit(this.companyId)}, ${recordId("pay", this.tenant, "ms", "n * 4 + k")}, ${this.jobId("n")},
        case when k = 2 then 20 + ${h("n", 244)} % 30 when paid < 80 then ${total} else round(${total} / 2, 2) end,
        ${timestampOf(`vstart + (${h("n", 245)} % 5 + k - 1) * ${DAY_MS}`)},
        ${weighted(
          [
            ["card", 55],
            ["ach", 15],
            ["cash", 10],
            ["check", 15],
            ["other", 5],
          ],
          "n",
          246,
        )},
        case when k = 2 then 'refund' else 'payment' end,
        case when k = 2 or ps < 95 then 'succeeded' when ps < 98 then 'pending' else 'failed' end
      from (
        select j.*, ${h("n", 240)} % 100 as paid, ${h("n", 242)} % 100 as ps, ${h("n", 241)} % 100 as refund
        from (${this.jobValues(lo, hi)}) j
      ) j cross join generate_series(1::bigint, 2::bigint) k
      where status = 'Completed' and paid < 90 and (k = 1 or (paid < 80 and refund < 3))`;
  }

  /** A quarter of the jobs have one or two crew members besides the assigned technician. */
  jobCrew(lo: number, hi: number): string {
    const t = this.size.users.technician;
    return `insert into job_crew (company_id, id, job_id, user_id, position)
      select ${lit(this.companyId)}, ${recordId("crw", this.tenant, "ms", "n * 4 + k")}, ${this.jobId("n")},
        ${this.technicianId(`(tech + 1 + k * 7) % ${t}`)}, k - 1
      from (${this.jobValues(lo, hi)}) j cross join generate_series(1::bigint, 2::bigint) k
      where ${chance(250, "n", 222)} and k <= 1 + ${h("n", 223)} % 2 and ${t} > 2`;
  }

  pins(lo: number, hi: number): string {
    const u = this.size.users;
    const staff = u.sales_rep + u.technician;
    // Skewed toward the common types; fewer types than eight wrap around.
    const typeIndex = `(case when x < 30 then 0 when x < 55 then 1 when x < 75 then 2 when x < 85 then 3
      when x < 92 then 4 when x < 96 then 5 when x < 98 then 6 else 7 end) % ${this.size.pinTypes}`;
    // Each pin with the knock that dropped it (its first visit), as POST /pins and the import write it.
    return `with made as (
      insert into pins (company_id, id, pin_type_id, created_by, latitude, longitude, created_at,
        updated_at, visit_count, last_visit_at)
      select ${lit(this.companyId)}, ${recordId("pin", this.tenant, "ms", "n")},
        ${this.pinTypeId(`1 + ${typeIndex}`)}, ${this.userId(`${u.admin + u.manager + 1} + ${h("n", 402)} % ${staff}`)},
        ${TenantSql.LAT}, ${TenantSql.LNG}, ${timestampOf("ms")}, ${timestampOf("ms")}, 1, ${timestampOf("ms")}
      from (
        select n, ${createdMs(this.size.pins, "n", SALT.pins)} as ms, ${h("n", 401)} % 100 as x,
          ${h("n", 403)} % ${CITIES.length} as ci,
          ((${h("n", 404)} % 4000) - 2000) / 10000.0 as dlat, ((${h("n", 405)} % 4000) - 2000) / 10000.0 as dlng
        from generate_series(${lo}::bigint, ${hi}::bigint) g(n)
      ) a
      returning company_id, id, created_at, created_by, pin_type_id
    )
    insert into pin_visits (company_id, pin_id, at, user_id, pin_type_id)
    select company_id, id, created_at, created_by, pin_type_id from made`;
  }
}

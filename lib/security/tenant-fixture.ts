import { randomBytes, randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { SCOPES } from "@/lib/values/scopes";
import { generateApiKey } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db/client";
import {
  apiKeys,
  lostReasons,
  pipelineStages,
  recordActivity,
  territories,
  territoryAssignees,
  users,
  webhookEndpoints,
} from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { importDocument, type ImportDocument } from "@/lib/import";
import type { Stage } from "@/lib/schemas/pipeline";

/**
 * A company with a record of every kind, written through the import like real data. Every string
 * holds its random `token` and phones are random, so any response can be scanned for a leak.
 */
export interface SeededCompany {
  companyId: string;
  token: string;
  /** Plaintext API key with every scope, and its id. */
  key: string;
  keyId: string;
  /** Admin user (with a password) and the other users. */
  admin: { id: string; email: string; password: string };
  userIds: string[];
  pinTypeId: string;
  pinId: string;
  /** A territory around its pin and its lead, assigned to its sales rep. */
  territoryId: string;
  /** A webhook endpoint subscribed to every event, so every write also writes the outbox. */
  webhookEndpointId: string;
  /** Its stored pipeline, and one lost reason. */
  pipeline: Stage[];
  lostReasonId: string;
  lead: { id: string; archivedId: string; name: string; email: string; phone: string; stage: string };
  customer: {
    id: string;
    archivedId: string;
    firstName: string;
    lastName: string;
    companyName: string;
    email: string;
    phone: string;
  };
  tag: string;
  serviceType: string;
  planId: string;
  jobIds: string[];
  /** Every id of the company's rows (including job children and the company itself). */
  ids: string[];
  /**
   * Distinctive values of the company's rows that another tenant has no reason to hold: names,
   * notes, labels, the key, the password and their hashes.
   */
  secrets: string[];
  /** Its emails and phones (text and digits): another tenant may legitimately store the same. */
  contacts: string[];
}

/** A random US-style phone whose digits cannot collide with another tenant's by chance. */
function randomPhone(): { text: string; digits: string } {
  const digits = `2${randomInt(10 ** 7, 10 ** 8)}${randomInt(10)}`;
  return { text: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`, digits };
}

export async function seedCompanyWithEverything(db: Db, label: string): Promise<SeededCompany> {
  const token = `${label.toLowerCase()}${randomBytes(5).toString("hex")}`;
  const co = newId(ID_PREFIX.company);
  const id = (prefix: keyof typeof ID_PREFIX) => newId(ID_PREFIX[prefix]);
  const [adminId, repId, techId] = [id("user"), id("user"), id("user")];
  const [pinTypeId, pinId] = [id("pinType"), id("pin")];
  const [leadId, archivedLeadId, customerId, archivedCustomerId] = [
    id("lead"),
    id("lead"),
    id("customer"),
    id("customer"),
  ];
  const planId = id("servicePlan");
  const [jobId, openJobId] = [id("job"), id("job")];
  const [lineItemId, paymentId, refundId] = [id("lineItem"), id("payment"), id("payment")];
  const password = `pw-${token}-${randomBytes(6).toString("hex")}`;
  const key = generateApiKey();
  const leadPhone = randomPhone();
  const archivedLeadPhone = randomPhone();
  const customerPhone = randomPhone();
  const archivedCustomerPhone = randomPhone();
  const tag = `tag-${token}`;
  const serviceType = `Service ${token}`;
  const email = (who: string) => `${who}.${token}@${token}.example`;

  const doc = {
    companies: [{ id: co, name: `Company ${token}` }],
    users: [
      { id: adminId, company_id: co, name: `Admin ${token}`, email: email("admin"), role: "admin", password },
      { id: repId, company_id: co, name: `Rep ${token}`, email: email("rep"), role: "sales_rep" },
      { id: techId, company_id: co, name: `Tech ${token}`, email: email("tech"), role: "technician" },
    ],
    api_keys: [{ company_id: co, name: `Key ${token}`, key, scopes: [...SCOPES], daily_limit: 1000 }],
    pin_types: [{ id: pinTypeId, company_id: co, label: `Pin type ${token}`, color: "#aa3344" }],
    pins: [
      {
        id: pinId,
        company_id: co,
        pin_type_id: pinTypeId,
        created_by: repId,
        location: [30.1, -97.2],
        created_at: "2026-02-01T10:00:00Z",
      },
    ],
    customers: [
      {
        id: customerId,
        company_id: co,
        first_name: `First${token}`,
        last_name: `Last${token}`,
        company_name: `Firm ${token}`,
        email: email("customer"),
        phone: customerPhone.text,
        notes: `Customer notes ${token}`,
        source: `Source ${token}`,
        property_street1: `1 ${token} Street`,
        property_city: `City ${token}`,
        billing_same_as_property: true,
        service_type: serviceType,
        tags: [tag],
        created_at: "2026-01-05T00:00:00Z",
        location: [30.2, -97.3],
        is_auto_pay: true,
        has_payment_method: true,
      },
      {
        id: archivedCustomerId,
        company_id: co,
        first_name: `Archived${token}`,
        email: email("archived-customer"),
        phone: archivedCustomerPhone.text,
        tags: [tag],
        archived: true,
        created_at: "2026-01-06T00:00:00Z",
      },
    ],
    leads: [
      {
        id: leadId,
        company_id: co,
        name: `Lead ${token}`,
        email: email("lead"),
        phone: leadPhone.text,
        property_street1: `2 ${token} Road`,
        stage: `Stage ${token}`,
        priority: "high",
        projected_value: 1234.5,
        service_type: serviceType,
        lead_source: `Source ${token}`,
        tags: [tag],
        notes: `Lead notes ${token}`,
        follow_up_date: "2026-05-01",
        assigned_to: repId,
        created_at: "2026-03-01T00:00:00Z",
        location: [30.3, -97.4],
      },
      {
        id: archivedLeadId,
        company_id: co,
        name: `Archived lead ${token}`,
        email: email("archived-lead"),
        phone: archivedLeadPhone.text,
        stage: `Stage ${token}`,
        tags: [tag],
        archived: true,
        archived_at: "2026-03-03T00:00:00Z",
        created_at: "2026-03-02T00:00:00Z",
      },
    ],
    service_plans: [
      {
        id: planId,
        company_id: co,
        customer_id: customerId,
        sold_by: repId,
        frequency: "Custom",
        custom_frequency_label: `Every ${token}`,
        total_visits: 4,
        price_per_visit: 77,
        service_type: serviceType,
        start_date: "2026-01-10",
        created_at: "2026-01-10T00:00:00Z",
      },
    ],
    jobs: [
      {
        id: jobId,
        company_id: co,
        customer_id: customerId,
        service_plan_id: planId,
        status: "Completed",
        created_at: "2026-01-11T00:00:00Z",
        assigned_to: techId,
        crew: [repId, techId],
        visits: [{ start: "2026-01-20T15:00:00Z", end: "2026-01-20T16:00:00Z" }],
        line_items: [
          { id: lineItemId, title: `Treatment ${token}`, description: `Work ${token}`, total_price: 77 },
        ],
        payments: [
          {
            id: paymentId,
            amount: 77,
            payment_date: "2026-01-21",
            payment_method: "card",
            payment_type: "payment",
            status: "succeeded",
          },
          {
            id: refundId,
            amount: 7,
            payment_date: "2026-01-22",
            payment_method: "card",
            payment_type: "refund",
            status: "succeeded",
          },
        ],
      },
      {
        id: openJobId,
        company_id: co,
        customer_id: customerId,
        status: "Scheduled",
        created_at: "2026-01-12T00:00:00Z",
        assigned_to: techId,
        visits: [{ start: "2026-02-20T15:00:00Z" }],
      },
    ],
  } satisfies ImportDocument;
  await importDocument(db, doc);
  // A note on the lead and on the customer: their text is the company's too.
  await db.insert(recordActivity).values([
    {
      companyId: co,
      recordType: "lead",
      recordId: leadId,
      type: "note",
      actorKind: "user",
      actorId: adminId,
      note: `Lead note ${token}`,
    },
    {
      companyId: co,
      recordType: "customer",
      recordId: customerId,
      type: "note",
      actorKind: "user",
      actorId: adminId,
      note: `Customer note ${token}`,
    },
  ]);
  const pipeline: Stage[] = [
    { key: `open-${token}`, label: `Open stage ${token}`, color: "#2563eb", kind: "open" },
    { key: `won-${token}`, label: `Won stage ${token}`, color: "#15803d", kind: "won" },
  ];
  await db
    .insert(pipelineStages)
    .values(pipeline.map((stage, position) => ({ ...stage, companyId: co, position })));

  const lostReasonId = newId(ID_PREFIX.lostReason);
  await db
    .insert(lostReasons)
    .values({ companyId: co, id: lostReasonId, label: `Reason ${token}`, position: 0 });

  const territoryId = newId(ID_PREFIX.territory);
  const ring: [number, number][] = [
    [-97.5, 30],
    [-97.1, 30],
    [-97.1, 30.4],
    [-97.5, 30.4],
  ];
  await db.insert(territories).values({
    companyId: co,
    id: territoryId,
    name: `Territory ${token}`,
    color: "#aa3344",
    polygon: { type: "Polygon", coordinates: [[...ring, ring[0]!]] },
    area: `(${ring.map(([lng, lat]) => `(${lng},${lat})`).join(",")})`,
  });
  await db.insert(territoryAssignees).values({ companyId: co, territoryId, userId: repId });

  const webhookEndpointId = newId(ID_PREFIX.webhookEndpoint);
  const webhookSecret = `whsec_${randomBytes(24).toString("base64")}`;
  await db.insert(webhookEndpoints).values({
    companyId: co,
    id: webhookEndpointId,
    url: `https://hooks-${token}.example.test/in`,
    description: `Hook ${token}`,
    events: [
      "lead.created",
      "lead.updated",
      "customer.created",
      "customer.updated",
      "pin.created",
      "pin.updated",
    ],
    secret: webhookSecret,
    previousSecret: `${webhookSecret}old`,
  });

  const [keyRow] = await db
    .select({ id: apiKeys.id, keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .where(eq(apiKeys.companyId, co));
  const [adminRow] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.companyId, co), eq(users.id, adminId)));
  const keyId = keyRow!.id;

  return {
    companyId: co,
    token,
    key,
    keyId,
    admin: { id: adminId, email: email("admin"), password },
    userIds: [adminId, repId, techId],
    pinTypeId,
    pinId,
    territoryId,
    webhookEndpointId,
    pipeline,
    lostReasonId,
    lead: {
      id: leadId,
      archivedId: archivedLeadId,
      name: `Lead ${token}`,
      email: email("lead"),
      phone: leadPhone.text,
      stage: `Stage ${token}`,
    },
    customer: {
      id: customerId,
      archivedId: archivedCustomerId,
      firstName: `First${token}`,
      lastName: `Last${token}`,
      companyName: `Firm ${token}`,
      email: email("customer"),
      phone: customerPhone.text,
    },
    tag,
    serviceType,
    planId,
    jobIds: [jobId, openJobId],
    ids: [
      co,
      adminId,
      repId,
      techId,
      keyId,
      pinTypeId,
      pinId,
      territoryId,
      webhookEndpointId,
      lostReasonId,
      leadId,
      archivedLeadId,
      customerId,
      archivedCustomerId,
      planId,
      jobId,
      openJobId,
      lineItemId,
      paymentId,
      refundId,
    ],
    secrets: [
      `Company ${token}`,
      `Admin ${token}`,
      `Rep ${token}`,
      `Tech ${token}`,
      key,
      keyRow!.keyHash,
      password,
      adminRow!.passwordHash!,
      `Pin type ${token}`,
      `Territory ${token}`,
      `hooks-${token}`,
      `Hook ${token}`,
      webhookSecret,
      `${webhookSecret}old`,
      `First${token}`,
      `Last${token}`,
      `Firm ${token}`,
      `Customer notes ${token}`,
      `Source ${token}`,
      `1 ${token} Street`,
      `City ${token}`,
      `Archived${token}`,
      `Lead ${token}`,
      `Archived lead ${token}`,
      `Lead notes ${token}`,
      `2 ${token} Road`,
      `Stage ${token}`,
      serviceType,
      tag,
      `Every ${token}`,
      `Treatment ${token}`,
      `Work ${token}`,
      ...pipeline.flatMap((stage) => [stage.key, stage.label]),
    ],
    contacts: [
      ...["admin", "rep", "tech", "customer", "archived-customer", "lead", "archived-lead"].map(email),
      ...[leadPhone, archivedLeadPhone, customerPhone, archivedCustomerPhone].flatMap((p) => [
        p.text,
        p.digits,
      ]),
    ],
  };
}

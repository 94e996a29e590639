import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { upsertCustomerBodySchema } from "@/lib/schemas/customers";
import { createCompany, testKeyPrincipal } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { ValidationError } from "../errors";
import { upsertCustomer } from "./upsert-customer";

const database = setupTestDatabase();

const upsert = (companyId: string, body: Record<string, unknown>) =>
  upsertCustomer({
    ctx: { db: database.db, companyId, principal: testKeyPrincipal(companyId) },
    input: upsertCustomerBodySchema.parse(body),
  });

const property = {
  property_street1: "1 Main St",
  property_city: "Springfield",
  property_state: "IL",
  property_zip: "62701",
};
const billing = { billing_street1: "PO Box 9", billing_city: "Shelbyville", billing_zip: "62565" };

// billing_same_as_property on update (contract section 6): the flag as given, else as stored;
// while true the billing address is the property address, whatever billing_* fields say.
describe(`upsertCustomer: billing address (${testEngine()})`, () => {
  it("a stored flag makes given billing fields give way to the property address", async () => {
    const { id: companyId } = await createCompany(database.db);
    const { customer } = await upsert(companyId, {
      first_name: "Flag",
      ...property,
      billing_same_as_property: true,
    });
    const { customer: updated } = await upsert(companyId, { id: customer.id, ...billing });
    expect(updated).toMatchObject({
      billing_same_as_property: true,
      billing_street1: "1 Main St",
      billing_city: "Springfield",
      billing_zip: "62701",
    });
  });

  it("without the flag the billing address stays its own while the property moves", async () => {
    const { id: companyId } = await createCompany(database.db);
    const { customer } = await upsert(companyId, { first_name: "Own", ...property, ...billing });
    const { customer: moved } = await upsert(companyId, {
      id: customer.id,
      property_street1: "2 Oak Ave",
      billing_city: "Capital City",
    });
    expect(moved).toMatchObject({
      property_street1: "2 Oak Ave",
      billing_same_as_property: false,
      billing_street1: "PO Box 9",
      billing_city: "Capital City",
    });
  });

  it("setting the flag copies the stored property address, or the one given with it", async () => {
    const { id: companyId } = await createCompany(database.db);
    const phone = `6${randomInt(10 ** 8, 10 ** 9)}`;
    await upsert(companyId, { first_name: "Later", phone, ...property, ...billing });
    // Matched by phone: the flag alone copies the stored property address.
    const { created, customer } = await upsert(companyId, { phone, billing_same_as_property: true });
    expect(created).toBe(false);
    expect(customer).toMatchObject({ billing_street1: "1 Main St", billing_city: "Springfield" });
    expect(customer).not.toHaveProperty("billing_country");
    const { customer: both } = await upsert(companyId, {
      phone,
      billing_same_as_property: true,
      property_street1: "3 Elm Rd",
      property_city: null,
    });
    expect(both).toMatchObject({ property_street1: "3 Elm Rd", billing_street1: "3 Elm Rd" });
    expect(both).not.toHaveProperty("billing_city");
    expect(both).not.toHaveProperty("property_city");
  });
});

describe(`upsertCustomer: what a new customer needs (${testEngine()})`, () => {
  it("refuses a body with nothing to match or name, before touching the database", async () => {
    const { id: companyId } = await createCompany(database.db);
    const error = await upsert(companyId, { notes: "no one" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.map((d) => d.field)).toEqual([
      "first_name",
      "last_name",
      "company_name",
      "email",
      "phone",
    ]);
  });

  it("creates from a phone without digits (nothing to match by), status active", async () => {
    const { id: companyId } = await createCompany(database.db);
    const first = await upsert(companyId, { phone: "ask at the desk" });
    const second = await upsert(companyId, { phone: "ask at the desk" });
    expect(first).toMatchObject({ created: true, customer: { status: "active", phone: "ask at the desk" } });
    expect(second.created).toBe(true);
    expect(second.customer.id).not.toBe(first.customer.id);
  });
});

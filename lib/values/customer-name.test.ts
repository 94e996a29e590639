import { describe, expect, it } from "vitest";
import { customerName } from "./customer-name";

describe("customerName", () => {
  it.each([
    [{ first_name: "Pat", last_name: "Doe", company_name: "Acme" }, "Pat Doe"],
    [{ first_name: "Pat", last_name: null, company_name: "Acme" }, "Pat"],
    [{ first_name: "", last_name: "Doe" }, "Doe"],
    [{ first_name: " ", last_name: "", company_name: "Acme", email: "a@x.test" }, "Acme"],
    [{ email: "a@x.test", phone: "555-0100" }, "a@x.test"],
    [{ phone: "555-0100" }, "555-0100"],
    // A job's or plan's customer reference holds no email or phone: its id names it.
    [{ id: "cus_1", first_name: "", last_name: "", company_name: "" }, "cus_1"],
    [{}, "(no name)"],
  ])("%o → %s", (customer, name) => {
    expect(customerName(customer)).toBe(name);
  });
});

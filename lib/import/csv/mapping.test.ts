import { describe, expect, it } from "vitest";
import { upsertCustomerBodySchema } from "@/lib/schemas/customers";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import { checkMapping, guessMapping, IMPORT_FIELDS, normalizeHeader, parseMapOption } from "./mapping";

describe("guessMapping", () => {
  it("maps the headers of other CRMs' lead exports", () => {
    const headers = [
      "First Name",
      "Last Name",
      "E-mail",
      "Mobile",
      "Phone Number",
      "Street",
      "Address Line 2",
      "City",
      "State/Province",
      "Zip Code",
      "Country/Region",
      "Lead Status",
      "Lead Source",
      "Labels",
      "Estimated Value",
      "Owner",
      "Description",
      "Follow-up Date",
      "ID",
      "Favourite colour",
    ];
    expect(guessMapping("leads", headers)).toEqual([
      "first_name",
      "last_name",
      "email",
      "phone",
      null, // a second phone column: a field is mapped once
      "address_street1",
      "address_street2",
      "address_city",
      "address_state",
      "address_zip",
      "address_country",
      "stage",
      "source",
      "tags",
      "projected_value",
      null, // owners are user ids: mapped by hand only
      "notes",
      "follow_up_date",
      null, // another CRM's id is not ours
      null,
    ]);
  });

  it("ignores case, spaces and punctuation, and words other CRMs put first", () => {
    expect(
      guessMapping("leads", [
        "FULL_NAME",
        "email address",
        "Contact Email",
        "postal-code",
        "Phone #",
        "Deal Value",
      ]),
    ).toEqual(["name", "email", null, "address_zip", "phone", "projected_value"]);
    expect(guessMapping("customers", ["Customer Status", "Client Email", "Primary Phone"])).toEqual([
      "status",
      "email",
      "phone",
    ]);
  });

  it("maps customers' billing and property addresses apart", () => {
    expect(
      guessMapping("customers", [
        "Name",
        "Company",
        "Service Address",
        "City",
        "Billing Street",
        "Billing City",
        "Mailing Zip/Postal Code",
        "Frequency",
        "Tags",
      ]),
    ).toEqual([
      "name",
      "company_name",
      "property_street1",
      "property_city",
      "billing_street1",
      "billing_city",
      "billing_zip",
      "service_frequency",
      "tags",
    ]);
  });

  it("offers only fields the create-or-update bodies take (name parts joined or split)", () => {
    const lead = Object.keys(upsertLeadBodySchema.shape);
    for (const { field } of IMPORT_FIELDS.leads)
      if (!["first_name", "last_name"].includes(field)) expect(lead).toContain(field);
    const customer = Object.keys(upsertCustomerBodySchema.shape);
    for (const { field } of IMPORT_FIELDS.customers) if (field !== "name") expect(customer).toContain(field);
  });

  it("normalizes headers to letters and digits", () => {
    expect(normalizeHeader(" E-Mail Address ")).toBe("emailaddress");
    expect(normalizeHeader("Código Postal")).toBe("códigopostal");
  });
});

describe("parseMapOption", () => {
  const headers = ["Name", "Email", "Cell", "Owner", "Notes"];

  it("overrides the guess for the named columns and ignores columns with an empty field", () => {
    expect(guessMapping("leads", headers)).toEqual(["name", "email", "phone", null, "notes"]);
    expect(parseMapOption("leads", headers, "Owner=assigned_to,Notes=,cell=service_type")).toEqual([
      "name",
      "email",
      "service_type",
      "assigned_to",
      null,
    ]);
  });

  it("moves a field from the column it was guessed for", () => {
    expect(parseMapOption("leads", headers, "Notes=email")).toEqual(["name", null, "phone", null, "email"]);
  });

  it("refuses unknown columns and fields, clearly", () => {
    expect(() => parseMapOption("leads", headers, "Mail=email")).toThrow(
      '--map: no column is named "Mail"; the columns are "Name", "Email", "Cell", "Owner", "Notes"',
    );
    expect(() => parseMapOption("leads", headers, "Owner=owner")).toThrow(
      /--map: "owner" is not a field of leads; the fields are name, first_name/,
    );
    expect(() => parseMapOption("leads", headers, "Owner")).toThrow(/must be Column=field/);
    expect(() => parseMapOption("leads", headers, "Owner=notes,Cell=notes")).toThrow(
      /notes is given to both "Owner" and "Cell"/,
    );
  });
});

describe("checkMapping", () => {
  it("accepts a guessed mapping", () => {
    expect(checkMapping("leads", ["name", null, "email"])).toEqual([]);
  });

  it("names unknown fields, fields mapped twice and a mapping that identifies nothing", () => {
    expect(checkMapping("leads", ["email", "owner", "email"])).toEqual([
      'column 2: "owner" is not a field of leads',
      "column 3: email is already mapped from column 1",
    ]);
    expect(checkMapping("customers", ["notes", null])).toEqual([
      "map a column to one of id, name, first_name, last_name, company_name, email, phone: a row needs one to be matched or created",
    ]);
  });
});

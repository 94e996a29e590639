import { describe, expect, it } from "vitest";
import { customerView } from "@/components/customers/customer-changes";
import { LEAD_CHANGE_FIELDS } from "@/components/leads/lead-changes";
import { displayValue, recordChanges, undoBody } from "./record-changes";

describe("recordChanges and undoBody", () => {
  const before = {
    name: "Pat",
    phone: "(512) 555-0199",
    property_city: "Austin",
    stage: "new",
    projected_value: null,
    tags: ["a"],
    notes: "Gate code",
  };
  const after = {
    ...before,
    phone: "512.555.0199",
    property_city: "",
    projected_value: 1200,
    tags: ["a", "b", "c"],
    notes: "Gate code",
  };

  it("lists the changed fields in the form's order; empty, null and absent are the same", () => {
    const changes = recordChanges(LEAD_CHANGE_FIELDS, before, after);
    expect(changes.map((c) => c.label)).toEqual(["Phone", "City", "Projected value", "Tags"]);
    expect(recordChanges(LEAD_CHANGE_FIELDS, { email: null, tags: [] }, { email: "" })).toEqual([]);
  });

  it("undoes with the body names, null for a value that was empty, remove_tags for added tags", () => {
    const changes = recordChanges(LEAD_CHANGE_FIELDS, before, after);
    expect(undoBody("lead_1", changes)).toEqual({
      id: "lead_1",
      phone: "(512) 555-0199",
      address_city: "Austin",
      projected_value: null,
      remove_tags: ["b", "c"],
    });
  });

  it("shows values as text", () => {
    expect([null, "", [], ["a", "b"], true, false, 12.5].map(displayValue)).toEqual([
      "—",
      "—",
      "—",
      "a, b",
      "Yes",
      "No",
      "12.5",
    ]);
  });

  it("flattens a customer's address to property_*", () => {
    const view = customerView({ id: "cus_1", address: { street1: "1 Oak", city: "Austin", zip: "" } });
    expect(view).toMatchObject({ property_street1: "1 Oak", property_city: "Austin", property_zip: "" });
  });
});

import { describe, expect, it } from "vitest";
import { customerView } from "@/components/customers/customer-changes";
import { LEAD_ASK_FIRST, LEAD_CHANGE_FIELDS } from "@/components/leads/lead-changes";
import { chosenUpdate, displayValue, recordChanges, undoBody } from "./record-changes";

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

  it("counts an owner change as a change, which Undo restores", () => {
    const priyas = { name: "Pat", stage: "new", assigned_to: "usr_priya" };
    const changes = recordChanges(LEAD_CHANGE_FIELDS, priyas, { ...priyas, assigned_to: "usr_jake" });
    expect(changes).toEqual([
      { key: "assigned_to", label: "Owner", body: "assigned_to", before: "usr_priya", after: "usr_jake" },
    ]);
    expect(undoBody("lead_1", changes)).toEqual({ id: "lead_1", assigned_to: "usr_priya" });
    // Taking an owner away is undone by giving the lead back to its owner; giving one, by clearing it.
    const given = recordChanges(
      LEAD_CHANGE_FIELDS,
      { name: "Pat" },
      { name: "Pat", assigned_to: "usr_jake" },
    );
    expect(undoBody("lead_1", given)).toEqual({ id: "lead_1", assigned_to: null });
  });
});

describe("chosenUpdate: a matched update changes the owner only when the user ticks it", () => {
  const existing = { name: "Pat", stage: "new", assigned_to: "usr_priya" };
  const body = { name: "Pat Smith", phone: "512.555.0199", assigned_to: "usr_jake" };
  const result = { ...existing, name: "Pat Smith", assigned_to: "usr_jake" };
  const changes = recordChanges(LEAD_CHANGE_FIELDS, existing, result);
  const askFirst = LEAD_ASK_FIRST.map((f) => f.key);

  it("unticked: the body leaves the owner out and the result keeps the existing owner", () => {
    const update = chosenUpdate(changes, askFirst, new Set(), body, result);
    expect(update.body).toEqual({ name: "Pat Smith", phone: "512.555.0199" });
    expect(update.result.assigned_to).toBe("usr_priya");
    expect(update.declined.map((c) => c.key)).toEqual(["assigned_to"]);
    expect(recordChanges(LEAD_CHANGE_FIELDS, existing, update.result).map((c) => c.label)).toEqual(["Name"]);
    // The caller's body is not changed.
    expect(body.assigned_to).toBe("usr_jake");
  });

  it("ticked: the body and the result keep the new owner", () => {
    const update = chosenUpdate(changes, askFirst, new Set(["assigned_to"]), body, result);
    expect(update.body).toEqual(body);
    expect(update.result.assigned_to).toBe("usr_jake");
    expect(update.declined).toEqual([]);
  });

  it("the same owner on both sides is no question and stays in the body", () => {
    const same = { ...existing, name: "Pat Smith" };
    const sameBody = { ...body, assigned_to: "usr_priya" };
    const none = recordChanges(LEAD_CHANGE_FIELDS, existing, same);
    expect(chosenUpdate(none, askFirst, new Set(), sameBody, same).body).toEqual(sameBody);
  });

  it("words the owner's checkbox with the names shown", () => {
    const [owner] = LEAD_ASK_FIRST;
    expect(owner?.choice("Jake Turner")).toBe("Also make Jake Turner the owner");
    expect(owner?.note("Priya Patel")).toBe(
      "The lead belongs to Priya Patel; left unticked, it stays theirs.",
    );
    expect(owner?.note("—")).toBe("The lead has no owner now; left unticked, it keeps none.");
  });
});

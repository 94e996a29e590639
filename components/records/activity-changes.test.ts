import { describe, expect, it } from "vitest";
import { changeText, describeChange, fieldLabel } from "./activity-changes";

const names = {
  stageLabel: (key: string) => ({ new: "New", contacted: "Contacted" })[key] ?? key,
  userName: (id: string) => (id === "usr_1" ? "Jake Rivera" : "Former user"),
};
const text = (kind: "lead" | "customer", field: string, from: unknown, to: unknown) =>
  changeText(describeChange(kind, { field, from, to }, names));

describe("activity changes as the timeline reads them", () => {
  it("labels fields of both kinds, nested and billing ones too", () => {
    expect(fieldLabel("lead", "property_city")).toBe("City");
    expect(fieldLabel("customer", "address.street1")).toBe("Street");
    expect(fieldLabel("customer", "billing_zip")).toBe("Billing ZIP");
    expect(fieldLabel("lead", "assigned_to")).toBe("Owner");
    expect(fieldLabel("customer", "some_new_field")).toBe("Some new field");
  });

  it("names stages and owners, formats money, dates and empties", () => {
    expect(text("lead", "stage", "new", "contacted")).toBe("Stage: New → Contacted");
    expect(text("lead", "assigned_to", null, "usr_1")).toBe("Owner: — → Jake Rivera");
    expect(text("lead", "projected_value", 1200, "")).toMatch(/^Projected value: \$1,200\.00 → —$/);
    expect(text("customer", "is_auto_pay", false, true)).toBe("Auto-pay: No → Yes");
    expect(text("lead", "priority", "low", "high")).toBe("Priority: Low → High");
    expect(text("customer", "status", "active", "inactive")).toBe("Status: Active → Inactive");
    expect(text("lead", "assigned_to", "usr_1", "usr_2")).toBe("Owner: Jake Rivera → Former user");
  });

  it("shows a tag list as the tags added and removed", () => {
    expect(text("lead", "tags", ["a", "b"], ["b", "c", "d"])).toBe("Tags: added c, d; removed a");
    expect(text("customer", "tags", null, ["vip"])).toBe("Tags: added vip");
  });

  it("shows a follow-up date in the user's time zone, not as stored", () => {
    const shown = text("lead", "follow_up_date", null, "2026-12-10T17:40:00.000Z");
    expect(shown).not.toContain("2026-12-10T");
    expect(shown).toMatch(/^Follow-up date: — → .*2026/);
  });
});

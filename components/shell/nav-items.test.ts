import { describe, expect, it } from "vitest";
import { ROLE_SCOPES } from "@/lib/auth/permissions";
import type { UserRole } from "@/lib/values/roles";
import { homePathFor, MY_LEADS_PATH, navItemsFor } from "./nav-items";

const access = (role: UserRole) => ({
  user: { role },
  scopes: [...ROLE_SCOPES[role]],
  can_manage_settings: role === "admin",
});

describe("homePathFor", () => {
  it("starts a sales rep on their own leads, a technician on the map, the others on their first section", () => {
    expect(homePathFor(access("sales_rep"))).toBe(MY_LEADS_PATH);
    expect(MY_LEADS_PATH).toBe("/leads?assigned_to=me");
    expect(homePathFor(access("admin"))).toBe("/leads");
    expect(homePathFor(access("manager"))).toBe("/leads");
    expect(homePathFor(access("technician"))).toBe("/map");
  });
});

describe("navItemsFor", () => {
  it("shows Import to admins and managers only", () => {
    const hasImport = (role: UserRole) => navItemsFor(access(role)).some((item) => item.href === "/import");
    expect(hasImport("admin")).toBe(true);
    expect(hasImport("manager")).toBe(true);
    expect(hasImport("sales_rep")).toBe(false);
    expect(hasImport("technician")).toBe(false);
  });
});

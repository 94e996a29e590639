import { describe, expect, it } from "vitest";
import {
  ACTIONS,
  accessOfActions,
  can,
  isSessionOnly,
  keyScopesOfAction,
  refusalOf,
  ROLE_SCOPES,
  rolesOfAction,
  type Action,
  type Caller,
} from "./permissions";

const session = (role: keyof typeof ROLE_SCOPES): Caller => ({
  kind: "session",
  role,
  scopes: ROLE_SCOPES[role],
});
const key = (...scopes: Caller["scopes"]): Caller => ({ kind: "api_key", scopes });

describe("the permission table", () => {
  it("lets only admins manage settings, and admins or managers edit territories", () => {
    const adminOnly: Action[] = [
      "settings:manage",
      "users:manage",
      "api_keys:manage",
      "pipeline:manage",
      "pin_types:manage",
      "audit_log:read",
    ];
    const roles = ["admin", "manager", "sales_rep", "technician"] as const;
    for (const action of adminOnly) {
      expect(roles.filter((role) => can(session(role), action))).toEqual(["admin"]);
      expect(can(key(...ROLE_SCOPES.admin), action), action).toBe(false);
    }
    expect(can(session("admin"), "territories:write")).toBe(true);
    expect(can(session("manager"), "territories:write")).toBe(true);
    expect(can(session("sales_rep"), "territories:write")).toBe(false);
    expect(can(key("pins:write"), "territories:write")).toBe(false);
    // The import page: admins and managers (keys import through the API with a write scope).
    expect(roles.filter((role) => can(session(role), "imports:run"))).toEqual(["admin", "manager"]);
  });

  it("lets a key's leads:read read customers, jobs, pin types and the pipeline, not a session's", () => {
    for (const action of ["customers:read", "jobs:read", "pin_types:read", "pipeline:read"] as const) {
      expect(can(key("leads:read"), action), action).toBe(true);
    }
    expect(can(key("leads:read"), "service_plans:read")).toBe(false);
    expect(can({ kind: "session", role: "technician", scopes: ["leads:read"] }, "jobs:read")).toBe(false);
  });

  it("words each refusal as the API's 403 does, in the contract's order", () => {
    expect(refusalOf(key("pins:read"), ["customers:read"])).toEqual({
      code: "INSUFFICIENT_SCOPE",
      message: "Insufficient scope: this endpoint requires the leads:read scope",
    });
    expect(refusalOf(session("technician"), ["customers:write"])).toEqual({
      code: "INSUFFICIENT_SCOPE",
      message: "Insufficient scope: this endpoint requires the customers:write scope",
    });
    expect(refusalOf(key("leads:write"), ["leads:write", "customers:write"])).toEqual({
      code: "INSUFFICIENT_SCOPE",
      message: "Insufficient scope: this endpoint also requires the customers:write scope",
    });
    expect(refusalOf(key(...ROLE_SCOPES.admin), ["users:manage"])).toEqual({
      code: "FORBIDDEN",
      message: "This endpoint is only available to signed-in dashboard users",
    });
    expect(refusalOf(key("leads:read"), [], { sessionOnly: true })?.code).toBe("FORBIDDEN");
    expect(refusalOf(session("sales_rep"), ["territories:write"])).toEqual({
      code: "FORBIDDEN",
      message: "Only admin or manager users may do this",
    });
    expect(refusalOf(session("manager"), ["pipeline:manage"])).toEqual({
      code: "FORBIDDEN",
      message: "Only admin users may do this",
    });
    expect(refusalOf(session("manager"), ["leads:write", "customers:write"])).toBeUndefined();
  });

  it("describes each action for the OpenAPI document", () => {
    expect(keyScopesOfAction("customers:read")).toEqual(["customers:read", "leads:read"]);
    expect(keyScopesOfAction("pipeline:read")).toEqual(["pipeline:read", "leads:read"]);
    expect(rolesOfAction("territories:write")).toEqual(["admin", "manager"]);
    expect(rolesOfAction("leads:read")).toBeUndefined();
    expect(Object.keys(ACTIONS).filter((a) => isSessionOnly(a as Action))).toEqual([
      "territories:write",
      "pins:relink_lead",
      "bulk_changes:undo_any",
      "settings:manage",
      "users:manage",
      "api_keys:manage",
      "pipeline:manage",
      "pin_types:manage",
      "audit_log:read",
      "webhooks:manage",
    ]);
    expect(accessOfActions(["leads:write", "customers:write"])).toEqual({
      scopes: ["leads:write"],
      alsoScopes: ["customers:write"],
      roles: undefined,
      sessionOnly: false,
      scopesFromKeys: ["leads:write"],
      scopeNamedToKey: "leads:write",
    });
    expect(accessOfActions(["jobs:read"]).scopeNamedToKey).toBe("leads:read");
  });
});

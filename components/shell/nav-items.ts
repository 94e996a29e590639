import type { Scope } from "@/lib/auth/scopes";

export type NavIcon = "leads" | "customers" | "plans" | "jobs" | "map" | "funnel" | "settings";

export interface NavItem {
  href: string;
  label: string;
  icon: NavIcon;
  /** Shown when the role has this scope. */
  scope?: Scope;
  /** Shown to users who may manage settings (admins) only. */
  settings?: boolean;
}

/** The dashboard's sections, in menu order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/leads", label: "Leads", icon: "leads", scope: "leads:read" },
  { href: "/customers", label: "Customers", icon: "customers", scope: "customers:read" },
  { href: "/reports/service-plans", label: "Service plans", icon: "plans", scope: "service_plans:read" },
  { href: "/reports/jobs", label: "Jobs", icon: "jobs", scope: "jobs:read" },
  { href: "/reports/field-activity", label: "Knock to cash", icon: "funnel", scope: "reports:read" },
  { href: "/map", label: "Map", icon: "map", scope: "pins:read" },
  { href: "/settings", label: "Settings", icon: "settings", settings: true },
];

export interface NavAccess {
  scopes: readonly string[];
  can_manage_settings: boolean;
}

/** The sections this user may use (ROLE_SCOPES decide; settings: admins). */
export function navItemsFor(access: NavAccess): NavItem[] {
  return NAV_ITEMS.filter((item) =>
    item.settings ? access.can_manage_settings : !item.scope || access.scopes.includes(item.scope),
  );
}

/** A sales rep's start page: their own leads ("My leads"). */
export const MY_LEADS_PATH = "/leads?assigned_to=me";

/**
 * Where "/" leads a signed-in user: a sales rep to their own leads, a technician to the map
 * (they log knocks in the street), others to their first section.
 */
export function homePathFor(access: NavAccess & { user?: { role: string } }): string {
  if (access.user?.role === "sales_rep" && access.scopes.includes("leads:read")) return MY_LEADS_PATH;
  if (access.user?.role === "technician" && access.scopes.includes("pins:read")) return "/map";
  return navItemsFor(access)[0]?.href ?? "/settings";
}

/** Whether a nav entry is the current section (its own page or a page below it). */
export function isActivePath(href: string, pathname: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

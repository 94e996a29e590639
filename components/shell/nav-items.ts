import { can, sessionCaller, type Action } from "@/lib/auth/permissions";
import type { SessionInfo } from "@/lib/schemas/session";

export type NavIcon = "leads" | "customers" | "plans" | "jobs" | "map" | "funnel" | "import" | "settings";

export interface NavItem {
  href: string;
  label: string;
  icon: NavIcon;
  /** Shown to users who may do this (lib/auth/permissions.ts). */
  action: Action;
}

/** The dashboard's sections, in menu order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/leads", label: "Leads", icon: "leads", action: "leads:read" },
  { href: "/customers", label: "Customers", icon: "customers", action: "customers:read" },
  { href: "/reports/service-plans", label: "Service plans", icon: "plans", action: "service_plans:read" },
  { href: "/reports/jobs", label: "Jobs", icon: "jobs", action: "jobs:read" },
  { href: "/reports/field-activity", label: "Knock to cash", icon: "funnel", action: "reports:read" },
  { href: "/map", label: "Map", icon: "map", action: "pins:read" },
  { href: "/import", label: "Import", icon: "import", action: "imports:run" },
  { href: "/settings", label: "Settings", icon: "settings", action: "settings:manage" },
];

export interface NavAccess {
  user: Pick<SessionInfo["user"], "role">;
  scopes: SessionInfo["scopes"];
}

/** The sections this user may use. */
export function navItemsFor(access: NavAccess): NavItem[] {
  return NAV_ITEMS.filter((item) => can(sessionCaller(access), item.action));
}

/** A sales rep's start page: their own leads ("My leads"). */
export const MY_LEADS_PATH = "/leads?assigned_to=me";

/**
 * Where "/" leads a role first, when it may use that page: a sales rep to their own leads, a
 * technician to the map (they log knocks in the street); others go to their first section.
 */
const START_PAGES: Partial<Record<SessionInfo["user"]["role"], { href: string; action: Action }>> = {
  sales_rep: { href: MY_LEADS_PATH, action: "leads:read" },
  technician: { href: "/map", action: "pins:read" },
};

export function homePathFor(access: NavAccess): string {
  const start = START_PAGES[access.user.role];
  if (start && can(sessionCaller(access), start.action)) return start.href;
  return navItemsFor(access)[0]?.href ?? "/settings";
}

/** Whether a nav entry is the current section (its own page or a page below it). */
export function isActivePath(href: string, pathname: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

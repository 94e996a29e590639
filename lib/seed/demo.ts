import type { Scope } from "@/lib/values/scopes";
import { SCOPES } from "@/lib/values/scopes";
import type { UserRole } from "@/lib/db/schema";

/**
 * The demo data's public facts: sign-ins, the demo API key, company ids. Documented in the README
 * and imported by the end-to-end tests. Demo only: never use these on a real deployment.
 */

/** "Now" for the demo data: fixed, so that every seed makes the same records. */
export const DEMO_ANCHOR = new Date("2026-11-16T15:00:00Z");

/** The password of every demo user. */
export const DEMO_PASSWORD = "fieldcrm-demo";

/** An API key of the main demo company with every scope (format: `fcrm_live_` + 43 base62 characters). */
export const DEMO_API_KEY = "fcrm_live_DEMOkeyFieldCrmLocalDevelopmentOnly00000000";
export const DEMO_API_KEY_NAME = "Demo key (all scopes)";
export const DEMO_API_KEY_SCOPES: readonly Scope[] = SCOPES;

export const DEMO_COMPANIES = {
  pest: { id: "co_demo_pest", name: "Lone Star Pest Control" },
  lawn: { id: "co_demo_lawn", name: "Hill Country Lawn & Garden" },
} as const;
export type DemoCompanyKey = keyof typeof DEMO_COMPANIES;

export interface DemoUser {
  id: string;
  companyId: string;
  name: string;
  email: string;
  role: UserRole;
  /** Inactive users cannot sign in (shown on the settings page). */
  active: boolean;
}

const pest = DEMO_COMPANIES.pest.id;
const lawn = DEMO_COMPANIES.lawn.id;

export const DEMO_USERS = [
  {
    id: "usr_pest_admin",
    companyId: pest,
    name: "Alex Morgan",
    email: "admin@lonestarpest.example",
    role: "admin",
    active: true,
  },
  {
    id: "usr_pest_manager",
    companyId: pest,
    name: "Maria Delgado",
    email: "manager@lonestarpest.example",
    role: "manager",
    active: true,
  },
  {
    id: "usr_pest_rep_jake",
    companyId: pest,
    name: "Jake Turner",
    email: "jake@lonestarpest.example",
    role: "sales_rep",
    active: true,
  },
  {
    id: "usr_pest_rep_priya",
    companyId: pest,
    name: "Priya Patel",
    email: "priya@lonestarpest.example",
    role: "sales_rep",
    active: true,
  },
  {
    id: "usr_pest_rep_marcus",
    companyId: pest,
    name: "Marcus Johnson",
    email: "marcus@lonestarpest.example",
    role: "sales_rep",
    active: true,
  },
  {
    id: "usr_pest_tech_luis",
    companyId: pest,
    name: "Luis Hernandez",
    email: "luis@lonestarpest.example",
    role: "technician",
    active: true,
  },
  {
    id: "usr_pest_tech_emily",
    companyId: pest,
    name: "Emily Chen",
    email: "emily@lonestarpest.example",
    role: "technician",
    active: true,
  },
  {
    id: "usr_pest_tech_derek",
    companyId: pest,
    name: "Derek Williams",
    email: "derek@lonestarpest.example",
    role: "technician",
    active: true,
  },
  {
    id: "usr_pest_tech_sam",
    companyId: pest,
    name: "Sam Nguyen",
    email: "sam@lonestarpest.example",
    role: "technician",
    active: false,
  },
  {
    id: "usr_lawn_admin",
    companyId: lawn,
    name: "Olivia Brooks",
    email: "admin@hillcountrylawn.example",
    role: "admin",
    active: true,
  },
  {
    id: "usr_lawn_manager",
    companyId: lawn,
    name: "Ben Carter",
    email: "manager@hillcountrylawn.example",
    role: "manager",
    active: true,
  },
  {
    id: "usr_lawn_rep_dana",
    companyId: lawn,
    name: "Dana Ruiz",
    email: "dana@hillcountrylawn.example",
    role: "sales_rep",
    active: true,
  },
  {
    id: "usr_lawn_tech_cody",
    companyId: lawn,
    name: "Cody Miller",
    email: "cody@hillcountrylawn.example",
    role: "technician",
    active: true,
  },
  {
    id: "usr_lawn_tech_ana",
    companyId: lawn,
    name: "Ana Flores",
    email: "ana@hillcountrylawn.example",
    role: "technician",
    active: true,
  },
] as const satisfies readonly DemoUser[];

/** A demo user by company and role (the first one). */
export function demoUser(company: DemoCompanyKey, role: UserRole): DemoUser {
  const user = DEMO_USERS.find(
    (u) => u.companyId === DEMO_COMPANIES[company].id && u.role === role && u.active,
  );
  if (!user) throw new Error(`no active demo ${role} in ${company}`);
  return user;
}

/** What `npm run db:seed` and `npm run dev` print: the sign-ins and the key. */
export function formatDemoCredentials(): string {
  const lines = [`Demo sign-ins (password for all: ${DEMO_PASSWORD}):`];
  for (const company of Object.values(DEMO_COMPANIES)) {
    lines.push(`  ${company.name} (${company.id})`);
    for (const user of DEMO_USERS.filter((u) => u.companyId === company.id && u.active))
      lines.push(`    ${user.role.padEnd(10)} ${user.email}`);
  }
  lines.push(`Demo API key (${DEMO_COMPANIES.pest.name}, every scope):`, `  ${DEMO_API_KEY}`);
  return lines.join("\n");
}

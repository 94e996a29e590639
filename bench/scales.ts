/**
 * The data set sizes of `npm run bench -- --scale <name>`. One large tenant (the one the cases
 * load) plus small tenants, so that every index really has to narrow by company first.
 */
export type ScaleName = "tiny" | "small" | "large";
export const SCALE_NAMES: readonly ScaleName[] = ["tiny", "small", "large"];

export interface UserCounts {
  admin: number;
  manager: number;
  sales_rep: number;
  technician: number;
}

export interface TenantSize {
  leads: number;
  customers: number;
  servicePlans: number;
  jobs: number;
  pins: number;
  pinTypes: number;
  users: UserCounts;
}

export interface Scale {
  name: ScaleName;
  large: TenantSize;
  smallTenants: number;
  small: TenantSize;
}

const LARGE: TenantSize = {
  leads: 1_000_000,
  customers: 250_000,
  servicePlans: 100_000,
  jobs: 1_000_000,
  pins: 200_000,
  pinTypes: 8,
  users: { admin: 2, manager: 4, sales_rep: 40, technician: 60 },
};

/** The large tenant's row counts divided by `divisor` (users and pin types kept as given). */
function proportional(divisor: number, users: UserCounts, pinTypes = 8): TenantSize {
  const part = (n: number) => Math.max(1, Math.round(n / divisor));
  return {
    leads: part(LARGE.leads),
    customers: part(LARGE.customers),
    servicePlans: part(LARGE.servicePlans),
    jobs: part(LARGE.jobs),
    pins: part(LARGE.pins),
    pinTypes,
    users,
  };
}

const SMALL_TENANT_USERS: UserCounts = { admin: 1, manager: 1, sales_rep: 2, technician: 3 };

export const SCALES: Record<ScaleName, Scale> = {
  large: { name: "large", large: LARGE, smallTenants: 20, small: proportional(500, SMALL_TENANT_USERS) },
  small: {
    name: "small",
    large: proportional(10, LARGE.users),
    smallTenants: 20,
    small: proportional(5000, SMALL_TENANT_USERS),
  },
  tiny: {
    name: "tiny",
    large: proportional(500, { admin: 1, manager: 1, sales_rep: 5, technician: 8 }),
    smallTenants: 2,
    small: proportional(10_000, SMALL_TENANT_USERS, 3),
  },
};

export function userTotal(users: UserCounts): number {
  return users.admin + users.manager + users.sales_rep + users.technician;
}

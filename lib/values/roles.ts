/** A dashboard user's role (contract section 9); what each may do is lib/auth's table. */
export const USER_ROLES = ["admin", "manager", "sales_rep", "technician"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const ROLE_LABELS: Record<UserRole, string> = {
  admin: "Admin",
  manager: "Manager",
  sales_rep: "Sales rep",
  technician: "Technician",
};

import "server-only";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/client";

/** What every domain verb runs with: the database, the tenant, who is acting and the request's id. */
export interface DomainContext {
  db: Db;
  companyId: string;
  principal: Principal;
  requestId: string;
  /** The client's address (lib/auth/client-ip.ts), for the audit log; absent outside a request. */
  ip?: string | null;
}

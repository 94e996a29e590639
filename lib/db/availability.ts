import { sql } from "drizzle-orm";
import { getDb } from "./client";
import { isDatabaseUnavailable } from "./errors";

/**
 * Whether the process's database answers a trivial statement now: false when it is down,
 * unreachable, missing or refusing us (isDatabaseUnavailable), within the pool's connection
 * timeout. For answers that must know before they start (a page's 503 status cannot be set once
 * rendering has begun); any other failure is a fault and is thrown.
 */
export async function isDatabaseReachable(): Promise<boolean> {
  try {
    await (await getDb()).execute(sql`select 1`);
    return true;
  } catch (error) {
    if (isDatabaseUnavailable(error)) return false;
    throw error;
  }
}

import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "./client";
import { isDatabaseUnavailable } from "./errors";

/**
 * Whether the database answers now, for pages that must pick their 503 status before rendering.
 * False when it is unavailable (isDatabaseUnavailable); any other failure is thrown.
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

import type { OpenOptions } from "@/lib/db/client";

/**
 * Database options of the commands that write in bulk (import, seed, first start of dev). The
 * server's statement timeout (a few seconds, so that a slow database answers 503) would cut a
 * large batch short on PostgreSQL; these commands wait as long as the work takes.
 */
export const BULK_WORK: OpenOptions = { statementTimeoutMs: 10 * 60_000 };

import type { OpenOptions } from "@/lib/db/client";

/**
 * Options for bulk-writing commands (import, seed, first dev start): the server's few-second
 * statement timeout would cut large batches short, so these wait as long as the work takes.
 */
export const BULK_WORK: OpenOptions = { statementTimeoutMs: 10 * 60_000 };

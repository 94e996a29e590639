import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { requestThrottle } from "@/lib/db/schema";

/** A limit: at most `max` requests per subject in a window of `windowSeconds`. */
export interface RequestLimit {
  max: number;
  windowSeconds: number;
}

/** Password reset requests: per email asked for (whether or not it has accounts), and per client IP. */
export const RESET_PER_EMAIL: RequestLimit = { max: 5, windowSeconds: 3600 };
export const RESET_PER_IP: RequestLimit = { max: 20, windowSeconds: 3600 };

export const resetEmailSubject = (emailNormalized: string) => `reset-email:${emailNormalized}`;
export const resetIpSubject = (ip: string) => `reset-ip:${ip}`;

/**
 * Counts one request for the subject in one upsert (so racing requests cannot both take the last
 * slot, as lib/auth/throttle.ts does for sign-in) and answers 0 when it is allowed, else the
 * seconds until its window ends. A refused request still counts: hammering does not reopen it.
 */
export async function takeRequest(db: DbOrTx, subject: string, limit: RequestLimit): Promise<number> {
  const expired = sql`request_throttle.window_started_at <= now() - make_interval(secs => ${limit.windowSeconds})`;
  const [row] = await db
    .insert(requestThrottle)
    .values({ subject, count: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: requestThrottle.subject,
      set: {
        count: sql`case when ${expired} then 1 else request_throttle.count + 1 end`,
        windowStartedAt: sql`case when ${expired} then now() else request_throttle.window_started_at end`,
      },
    })
    .returning({
      count: requestThrottle.count,
      secondsLeft: sql<number>`ceil(greatest(1, extract(epoch from (request_throttle.window_started_at + make_interval(secs => ${limit.windowSeconds}) - now()))))::int`,
    });
  if (!row || row.count <= limit.max) return 0;
  return Number(row.secondsLeft);
}

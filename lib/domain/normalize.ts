import "server-only";
import { sql, type AnyColumn, type Param, type SQL } from "drizzle-orm";

// The SQL half of the tag rules; the pure rules (phone, email, tag lists) are lib/values/normalize.ts.

/**
 * The tag merge of create-or-update (contract section 6), in SQL so an update merges with the row as
 * written: stored tags, then new ones in order. `incoming` must be without repeats (uniqueTags).
 */
export function mergedTags(stored: AnyColumn | SQL, incoming: Param | SQL): SQL {
  return sql`(${stored} || array(select t from unnest(${incoming}::text[]) with ordinality as u(t, n)
    where t <> all(${stored}) order by n))`;
}

/** `tags` without those of `removed`, in their order (`remove_tags` of create-or-update). */
export function withoutTags(tags: SQL, removed: Param | SQL): SQL {
  return sql`array(select t from unnest(${tags}) with ordinality as u(t, n)
    where t <> all(${removed}::text[]) order by n)`;
}

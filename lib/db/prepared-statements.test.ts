import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryPrepared, queryRows, type Database } from "@/lib/db/client";
import { createTestDatabase, testEngine } from "@/lib/testing/test-database";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe(`a prepared statement's rows (${testEngine()})`, () => {
  it("are the rows the same text gives through the data layer: each type read alike", async () => {
    const text = `select
        $1::timestamptz as at, $1::timestamp as local_at, $1::date as day, '1 day 2 hours'::interval as span,
        array[$1::timestamptz] as ats, array[$1::timestamp] as local_ats, array[$1::date] as days,
        array['1 day'::interval] as spans, array[12.50::numeric] as amounts,
        12.50::numeric as amount, 2.5::float8 as score, 7::int as count, array['a', 'b'] as tags,
        true as flag, null::text as nothing`;
    const at = "2026-11-27T10:11:12.345678Z";
    const prepared = await queryPrepared(database.db, { name: "fcrm_test_prepared_types_v1", text }, [at]);
    const viaDataLayer = await queryRows(database.db, sql.raw(text.replaceAll("$1", `'${at}'`)));
    expect(prepared).toEqual(viaDataLayer);
    // The driver's text, for the columns' own mappers (a timestamp is not a Date yet).
    expect(typeof prepared[0]!.at).toBe("string");
    expect(prepared[0]!.tags).toEqual(["a", "b"]);
    // Twice on one named statement: the second run binds values only, and reads the same.
    expect(await queryPrepared(database.db, { name: "fcrm_test_prepared_types_v1", text }, [at])).toEqual(
      prepared,
    );
  });
});

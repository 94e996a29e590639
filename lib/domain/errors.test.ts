import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fromDatabaseError, MAPPED_FOREIGN_KEYS, PinTypeInUseError, ValidationError } from "./errors";
import { createCompany, createUser } from "@/lib/testing/factories";
import { insertPinType } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

/** The error a statement fails with (it must fail). */
async function refusal(statement: ReturnType<typeof sql>): Promise<unknown> {
  try {
    await database.db.execute(statement);
  } catch (error) {
    return error;
  }
  throw new Error("the statement was expected to fail");
}

describe(`fromDatabaseError (${testEngine()})`, () => {
  it("maps only foreign keys the schema has, each referencing the table it names", async () => {
    const { rows } = await database.db.execute<{ constraint: string; referenced: string }>(
      sql`select conname as constraint, confrelid::regclass::text as referenced
        from pg_constraint where contype = 'f'`,
    );
    for (const key of MAPPED_FOREIGN_KEYS) expect(rows).toContainEqual(key);
  });

  it("makes a write's reference removed meanwhile a 400 naming the field, and a removal's a 409", async () => {
    const company = await createCompany(database.db);
    const user = await createUser(database.db, company.id);
    const type = await insertPinType(database.db, company.id, { label: "Used" });

    const gone = fromDatabaseError(
      await refusal(sql`insert into pins (company_id, id, pin_type_id, created_by, latitude, longitude)
        values (${company.id}, 'pin_x', 'pt_gone', ${user.id}, 1, 1)`),
    );
    expect(gone).toBeInstanceOf(ValidationError);
    expect((gone as ValidationError).details).toEqual([
      { field: "pin_type_id", message: expect.stringContaining("pin type") },
    ]);

    await database.db
      .execute(sql`insert into pins (company_id, id, pin_type_id, created_by, latitude, longitude)
      values (${company.id}, 'pin_y', ${type.id}, ${user.id}, 1, 1)`);
    const inUse = fromDatabaseError(
      await refusal(sql`delete from pin_types where company_id = ${company.id} and id = ${type.id}`),
    );
    expect(inUse).toBeInstanceOf(PinTypeInUseError);
  });

  it("leaves other database errors alone, a foreign key no settings change can break included", async () => {
    const company = await createCompany(database.db);
    const unknownOwner = await refusal(sql`insert into leads (company_id, id, assigned_to)
      values (${company.id}, 'lead_x', 'user_nobody')`);
    expect(unknownOwner).toBeDefined();
    expect(fromDatabaseError(unknownOwner)).toBeUndefined();
    expect(fromDatabaseError(await refusal(sql`select 1/0`))).toBeUndefined();
    expect(fromDatabaseError(new Error("insert or update on table pins"))).toBeUndefined();
  });
});

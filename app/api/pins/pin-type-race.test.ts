import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as postPin } from "@/app/api/pins/route";
import { PUT as putPinTypes } from "@/app/api/settings/pin-types/route";
import { connectWithLockTimeout, setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { insertPinType } from "@/lib/testing/plan-job-fixtures";

const database = setupTestDatabase();

type Body = Record<string, unknown> & { details?: { field: string }[] };

/** A company with an admin signed in, an all-scopes key and two pin types: one kept, one doomed. */
async function scenario() {
  const db = database.db;
  const company = await createCompany(db);
  const { key } = await createApiKey(db, company.id);
  const admin = await createUser(db, company.id, { role: "admin", name: "Ada Admin" });
  const kept = await insertPinType(db, company.id, { label: "Kept" });
  const doomed = await insertPinType(db, company.id, { label: "Doomed" });
  return { companyId: company.id, key, admin, cookie: await createSessionCookie(db, admin), kept, doomed };
}

const postPinAs = (key: string, body: unknown) => call<Body>(postPin, apiRequest("/pins", { key, body }));

async function pinsOfCompany(companyId: string) {
  const { rows } = await database.db.execute<{ id: string; pin_type_id: string }>(
    sql`select id, pin_type_id from pins where company_id = ${companyId} order by id`,
  );
  return rows;
}

/**
 * Runs `body` with a trigger standing for the concurrent removal: once the write is past its check
 * of the pin type, the type is deleted as an admin's save would, just before the pin row lands.
 */
async function withPinTypeRemovedMidWrite(companyId: string, body: () => Promise<void>) {
  await database.db.execute(
    sql.raw(`create function remove_pin_type_mid_write() returns trigger language plpgsql as $$
    begin
      delete from pin_types where company_id = new.company_id and id = new.pin_type_id and label = 'Doomed';
      return new;
    end $$`),
  );
  await database.db.execute(
    sql.raw(`create trigger remove_pin_type_mid_write before insert or update of pin_type_id on pins
    for each row when (new.company_id = '${companyId}') execute function remove_pin_type_mid_write()`),
  );
  try {
    await body();
  } finally {
    await database.db.execute(sql`drop trigger remove_pin_type_mid_write on pins`);
    await database.db.execute(sql`drop function remove_pin_type_mid_write()`);
  }
}

describe(`a pin type removed while a pin is written with it (${testEngine()})`, () => {
  it("answers a create 400 naming pin_type_id and writes no pin", async () => {
    const s = await scenario();
    await withPinTypeRemovedMidWrite(s.companyId, async () => {
      const res = await postPinAs(s.key, {
        location: [30.1, -97.1],
        pin_type_id: s.doomed.id,
        created_by: s.admin.id,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: "error", error_code: "VALIDATION_ERROR" });
      expect(res.body.details?.map((d) => d.field)).toEqual(["pin_type_id"]);
      expect(res.text).not.toMatch(/pins_pin_type_fk|pin_visits|foreign key|insert/i);
    });
    expect(await pinsOfCompany(s.companyId)).toEqual([]);
  });

  it("answers an update that changes the type 400 naming pin_type_id and keeps the pin as it was", async () => {
    const s = await scenario();
    const made = await postPinAs(s.key, {
      location: [30.1, -97.1],
      pin_type_id: s.kept.id,
      created_by: s.admin.id,
    });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    await withPinTypeRemovedMidWrite(s.companyId, async () => {
      const res = await postPinAs(s.key, { id, pin_type_id: s.doomed.id, notes: "changed" });
      expect(res.status).toBe(400);
      expect(res.body.details?.map((d) => d.field)).toEqual(["pin_type_id"]);
    });
    expect(await pinsOfCompany(s.companyId)).toEqual([{ id, pin_type_id: s.kept.id }]);
    const { rows } = await database.db.execute<{ visits: number; notes: string | null }>(
      sql`select visit_count as visits, notes from pins where company_id = ${s.companyId} and id = ${id}`,
    );
    expect(rows[0]).toEqual({ visits: 1, notes: null });
  });

  it("answers the settings save that removes a type a pin took meanwhile 409 PIN_TYPE_IN_USE", async () => {
    const s = await scenario();
    // A pin written with the doomed type after the save counted its uses, before its delete ran.
    await database.db.execute(
      sql.raw(`create function pin_written_mid_removal() returns trigger language plpgsql as $$
      begin
        insert into pins (company_id, id, pin_type_id, created_by, latitude, longitude)
        values (old.company_id, 'pin_mid_removal_' || old.id, old.id, '${s.admin.id}', 1, 1);
        return old;
      end $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger pin_written_mid_removal before delete on pin_types
      for each row when (old.company_id = '${s.companyId}') execute function pin_written_mid_removal()`),
    );
    let res;
    try {
      res = await call<Body>(
        putPinTypes,
        apiRequest("/settings/pin-types", {
          method: "PUT",
          cookie: s.cookie,
          body: { pin_types: [{ id: s.kept.id, label: "Kept", color: "#3366ff" }] },
        }),
      );
    } finally {
      await database.db.execute(sql`drop trigger pin_written_mid_removal on pin_types`);
      await database.db.execute(sql`drop function pin_written_mid_removal()`);
    }
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: "error", error_code: "PIN_TYPE_IN_USE" });
    expect(res.text).not.toMatch(/pins_pin_type_fk|foreign key|delete/i);
    const { rows } = await database.db.execute<{ label: string }>(
      sql`select label from pin_types where company_id = ${s.companyId} order by label`,
    );
    expect(rows.map((r) => r.label)).toEqual(["Doomed", "Kept"]);
    expect(await pinsOfCompany(s.companyId)).toEqual([]);
  });
});

if (testEngine() === "postgres") {
  // Two real transactions: the removal holds its delete while the pin's write, past its check,
  // waits on the type's row; the removal commits and the write finds the type gone.
  describe("a pin type removed by another transaction while a pin's write waits (PostgreSQL)", () => {
    it("answers 400 naming pin_type_id once the removal commits", async () => {
      const s = await scenario();
      const remover = await connectWithLockTimeout(database);
      try {
        await remover.query("begin");
        await remover.query("delete from pin_types where company_id = $1 and id = $2", [
          s.companyId,
          s.doomed.id,
        ]);
        let settled = false;
        const writing = postPinAs(s.key, {
          location: [30.1, -97.1],
          pin_type_id: s.doomed.id,
          created_by: s.admin.id,
        }).finally(() => (settled = true));
        // The write is past its check once it waits on the lock the delete holds.
        while (!settled) {
          // Inside a transaction pg_stat_activity answers one snapshot unless it is cleared.
          await remover.query("select pg_stat_clear_snapshot()");
          const { rows } = await remover.query<{ waiting: number }>(
            `select count(*)::int as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into pins%'`,
          );
          if (rows[0]!.waiting > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await remover.query("commit");
        const res = await writing;
        expect(res.status).toBe(400);
        expect(res.body.details?.map((d) => d.field)).toEqual(["pin_type_id"]);
      } finally {
        await remover.end();
      }
      expect(await pinsOfCompany(s.companyId)).toEqual([]);
    });
  });
}

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as deleteTerritoryRoute } from "@/app/api/territories/[id]/route";
import { POST as upsertTerritoryRoute } from "@/app/api/territories/route";
import { apiRequest, call, createCompany, createSessionCookie, createUser } from "@/lib/testing/factories";
import { connectWithLockTimeout, setupTestDatabase, testEngine } from "@/lib/testing/test-database";

/*
 * territory_assignees_territory_fk cannot be broken by a concurrent delete: an update locks the
 * territory's row before it writes the assignees, so a delete either waits for the update or has
 * already removed the row, and the update answers 404. These tests hold that, on both orders the
 * engine allows.
 */

const database = setupTestDatabase();

const SQUARE = [
  [-97.8, 30.2],
  [-97.7, 30.2],
  [-97.7, 30.3],
  [-97.8, 30.3],
  [-97.8, 30.2],
];

async function scenario() {
  const company = await createCompany(database.db);
  const admin = await createUser(database.db, company.id, { role: "admin", name: "Ada Admin" });
  const rep = await createUser(database.db, company.id, { role: "sales_rep", name: "Rita Rep" });
  const cookie = await createSessionCookie(database.db, admin);
  const made = await call<{ data: { id: string } }>(
    upsertTerritoryRoute,
    apiRequest("/territories", {
      cookie,
      body: { name: "North", polygon: { type: "Polygon", coordinates: [SQUARE] } },
    }),
  );
  expect(made.status).toBe(201);
  return { companyId: company.id, cookie, rep, territoryId: made.body.data.id };
}

const update = (cookie: string, body: unknown) =>
  call<{ status: string; error_code?: string }>(
    upsertTerritoryRoute,
    apiRequest("/territories", { cookie, body }),
  );

async function assigneeRows(companyId: string) {
  const { rows } = await database.db.execute(
    sql`select territory_id, user_id from territory_assignees where company_id = ${companyId}`,
  );
  return rows;
}

describe(`a territory deleted around its update (${testEngine()})`, () => {
  it("answers the update that comes after the delete 404 and writes no assignee", async () => {
    const s = await scenario();
    const removed = await call(
      deleteTerritoryRoute,
      apiRequest(`/territories/${s.territoryId}`, { cookie: s.cookie, method: "DELETE" }),
      { id: s.territoryId },
    );
    expect(removed.status).toBe(204);
    const res = await update(s.cookie, { id: s.territoryId, name: "Renamed", assigned_to: [s.rep.id] });
    expect(res.status).toBe(404);
    expect(await assigneeRows(s.companyId)).toEqual([]);
  });
});

if (testEngine() === "postgres") {
  describe("a territory deleted by another transaction while its update waits (PostgreSQL)", () => {
    it("answers the update 404 once the delete commits, and writes no assignee", async () => {
      const s = await scenario();
      const remover = await connectWithLockTimeout(database);
      try {
        await remover.query("begin");
        await remover.query("delete from territories where company_id = $1 and id = $2", [
          s.companyId,
          s.territoryId,
        ]);
        let settled = false;
        const updating = update(s.cookie, {
          id: s.territoryId,
          name: "Renamed",
          assigned_to: [s.rep.id],
        }).finally(() => (settled = true));
        // The update waits on the row the uncommitted delete holds (its lock, then its change).
        while (!settled) {
          // Inside a transaction pg_stat_activity answers one snapshot unless it is cleared.
          await remover.query("select pg_stat_clear_snapshot()");
          const { rows } = await remover.query<{ waiting: number }>(
            `select count(*)::int as waiting from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'
                and query ilike '%territories%'`,
          );
          if (rows[0]!.waiting > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await remover.query("commit");
        const res = await updating;
        expect(res.status).toBe(404);
      } finally {
        await remover.end();
      }
      expect(await assigneeRows(s.companyId)).toEqual([]);
    });
  });
}

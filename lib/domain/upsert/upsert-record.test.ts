import { randomInt } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, leads } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { createCompany } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { normalizeEmail, normalizePhone, uniqueTags } from "@/lib/values/normalize";
import { mergedTags } from "@/lib/domain/normalize";
import { recordFields } from "@/lib/domain/records/fields";
import {
  findRecordToUpdate,
  upsertRecord,
  type MatchKeys,
  type UpsertSpec,
  type UpsertTable,
} from "./upsert-record";

const database = setupTestDatabase();

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const newPhone = () => `5${randomInt(10 ** 8, 10 ** 9)}`;

/** The two tables create-or-update serves, each with how to store a record of it directly. */
const tables = [
  {
    name: "leads",
    table: leads as UpsertTable,
    insert: (companyId: string, values: Partial<typeof leads.$inferInsert>) => {
      const id = values.id ?? newId(ID_PREFIX.lead);
      return database.db
        .insert(leads)
        .values({ name: "Stored", ...values, companyId, id })
        .then(() => id);
    },
  },
  {
    name: "customers",
    table: customers as UpsertTable,
    insert: (companyId: string, values: Partial<typeof customers.$inferInsert>) => {
      const id = values.id ?? newId(ID_PREFIX.customer);
      return database.db
        .insert(customers)
        .values({ firstName: "Stored", ...values, companyId, id })
        .then(() => id);
    },
  },
] as const;

const keysOf = (keys: { id?: string; phone?: string; email?: string }): MatchKeys => ({
  id: keys.id,
  phone: normalizePhone(keys.phone),
  email: normalizeEmail(keys.email),
});

describe(`findRecordToUpdate: the matching of create-or-update (${testEngine()})`, () => {
  for (const { name, table, insert } of tables) {
    const find = (companyId: string, keys: MatchKeys) =>
      database.db.transaction((tx) => findRecordToUpdate(tx, table, companyId, keys));

    it(`${name}: an id matches that record only, whatever the phone and email say`, async () => {
      const { id: companyId } = await createCompany(database.db);
      const phone = newPhone();
      const byPhone = await insert(companyId, { phone, phoneNormalized: phone });
      const byId = await insert(companyId, { createdAt: minutesAgo(60) });
      expect(await find(companyId, keysOf({ id: byId, phone }))).toBe(byId);
      expect(await find(companyId, keysOf({ id: "no-such-id", phone }))).toBeUndefined();
      expect(await find(companyId, keysOf({ phone }))).toBe(byPhone);
    });

    it(`${name}: the phone (on its digits) wins over the email, even over a newer email match`, async () => {
      const { id: companyId } = await createCompany(database.db);
      const phone = newPhone();
      const email = `p${phone}@example.test`;
      const phoneMatch = await insert(companyId, {
        phone: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`,
        phoneNormalized: phone,
        createdAt: minutesAgo(30),
      });
      await insert(companyId, { email, emailNormalized: email, createdAt: minutesAgo(1) });
      expect(await find(companyId, keysOf({ phone: `+1 ${phone}`, email }))).toBe(phoneMatch);
    });

    it(`${name}: the email (case-insensitively) when no phone matches`, async () => {
      const { id: companyId } = await createCompany(database.db);
      const email = `e${newPhone()}@example.test`;
      const emailMatch = await insert(companyId, { email, emailNormalized: email });
      const keys = keysOf({ phone: newPhone(), email: ` ${email.toUpperCase()} ` });
      expect(await find(companyId, keys)).toBe(emailMatch);
      expect(await find(companyId, keysOf({ email: email.toUpperCase() }))).toBe(emailMatch);
      expect(await find(companyId, keysOf({ phone: newPhone() }))).toBeUndefined();
      expect(await find(companyId, keysOf({}))).toBeUndefined();
    });

    it(`${name}: the newest of several matches (created_at, then id), archived ones too`, async () => {
      const { id: companyId } = await createCompany(database.db);
      const phone = newPhone();
      const email = `n${phone}@example.test`;
      const at = minutesAgo(5);
      await insert(companyId, { phone, phoneNormalized: phone, createdAt: minutesAgo(50) });
      await insert(companyId, { id: `${name}_a`, phone, phoneNormalized: phone, createdAt: at });
      const newest = await insert(companyId, {
        id: `${name}_b`,
        phone,
        phoneNormalized: phone,
        createdAt: at,
      });
      expect(await find(companyId, keysOf({ phone }))).toBe(newest);

      const archived = await insert(companyId, {
        email,
        emailNormalized: email,
        archived: true,
        createdAt: minutesAgo(1),
      });
      await insert(companyId, { email, emailNormalized: email, createdAt: minutesAgo(40) });
      expect(await find(companyId, keysOf({ email }))).toBe(archived);
    });

    it(`${name}: never another company's record, by id, phone or email`, async () => {
      const { id: mine } = await createCompany(database.db);
      const { id: theirs } = await createCompany(database.db);
      const phone = newPhone();
      const email = `t${phone}@example.test`;
      const foreign = await insert(theirs, { phone, phoneNormalized: phone, email, emailNormalized: email });
      expect(await find(mine, keysOf({ id: foreign }))).toBeUndefined();
      expect(await find(mine, keysOf({ phone, email }))).toBeUndefined();
      // Theirs is newer than mine: mine is still the one.
      const own = await insert(mine, { phone, phoneNormalized: phone, createdAt: minutesAgo(60) });
      expect(await find(mine, keysOf({ phone, email }))).toBe(own);
      expect(await find(theirs, keysOf({ phone }))).toBe(foreign);
    });
  }
});

describe(`mergedTags: the tag merge (${testEngine()})`, () => {
  it("keeps the stored tags, then appends the new ones not yet present, in their order", async () => {
    const cases: [stored: string[], incoming: string[], merged: string[]][] = [
      [[], [], []],
      [[], ["a", "b"], ["a", "b"]],
      [["a", "b"], [], ["a", "b"]],
      [
        ["a", "b"],
        ["b", "c", "a", "d"],
        ["a", "b", "c", "d"],
      ],
      [
        ["x", "x", "y"],
        ["y", "z"],
        ["x", "x", "y", "z"],
      ],
      [["Vip"], ["vip", "VIP", "Vip"], ["Vip", "vip", "VIP"]],
      [
        ["with space", "ünïcode", 'quo"te'],
        ['quo"te', "comma,tag", "{brace}", "back\\slash"],
        ["with space", "ünïcode", 'quo"te', "comma,tag", "{brace}", "back\\slash"],
      ],
    ];
    for (const [stored, incoming, merged] of cases) {
      const newOnes = uniqueTags(incoming);
      const [row] = (
        await database.db.execute<{ tags: string[] }>(
          sql`select ${mergedTags(sql`${sql.param(stored, leads.tags)}::text[]`, sql.param(newOnes, leads.tags))} as tags`,
        )
      ).rows;
      expect(row?.tags, JSON.stringify([stored, incoming])).toEqual(merged);
    }
  });
});

describe(`upsertRecord (${testEngine()})`, () => {
  const spec = (companyId: string, keys: MatchKeys, tags: string[] = []): UpsertSpec<typeof leads> => ({
    table: leads,
    fields: recordFields(leads, ["id", "name", "notes", "tags", "archived"]),
    companyId,
    keys,
    update: { notes: "updated" },
    create: {
      id: newId(ID_PREFIX.lead),
      name: "Created",
      notes: "created",
      phoneNormalized: keys.phone,
      emailNormalized: keys.email,
    },
    tags,
    maxTags: 5,
    activity: {
      recordType: "lead",
      actor: { kind: "api_key", id: "key_test" },
      answer: (row: Record<string, unknown>) => row,
      ignore: new Set(["id"]),
    },
    notFound: () => new NotFoundError("Lead"),
    tooManyTags: (count) => new ValidationError([{ field: "tags", message: `${count} tags` }]),
  });

  it("creates when nothing matches, updates the match otherwise; archived stays archived", async () => {
    const { id: companyId } = await createCompany(database.db);
    const phone = newPhone();
    const first = await upsertRecord(database.db, spec(companyId, keysOf({ phone }), ["a"]));
    expect(first).toMatchObject({ created: true, row: { name: "Created", notes: "created", tags: ["a"] } });
    await database.db.update(leads).set({ archived: true }).where(eq(leads.id, first.row.id));
    const second = await upsertRecord(database.db, spec(companyId, keysOf({ phone }), ["b", "a"]));
    expect(second).toMatchObject({
      created: false,
      row: { id: first.row.id, name: "Created", notes: "updated", tags: ["a", "b"], archived: true },
    });
  });

  it("refuses an unknown id and a merge past the limit, and writes nothing", async () => {
    const { id: companyId } = await createCompany(database.db);
    await expect(upsertRecord(database.db, spec(companyId, keysOf({ id: "nope" })))).rejects.toThrow(
      NotFoundError,
    );
    const phone = newPhone();
    const { row } = await upsertRecord(database.db, spec(companyId, keysOf({ phone }), ["1", "2", "3"]));
    for (const keys of [keysOf({ id: row.id }), keysOf({ phone })]) {
      const error = await upsertRecord(database.db, spec(companyId, keys, ["3", "4", "5", "6"])).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details).toEqual([{ field: "tags", message: "6 tags" }]);
    }
    const [stored] = await database.db.select().from(leads).where(eq(leads.id, row.id));
    expect(stored).toMatchObject({ notes: "created", tags: ["1", "2", "3"] });
  });

  it("loses no tag when updates of one record by id run at the same time", async () => {
    const { id: companyId } = await createCompany(database.db);
    const { row } = await upsertRecord(database.db, spec(companyId, keysOf({ phone: newPhone() })));
    const many: UpsertSpec<typeof leads> = { ...spec(companyId, keysOf({ id: row.id })), maxTags: 100 };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => upsertRecord(database.db, { ...many, tags: [`t${i}`] })),
    );
    const [stored] = await database.db.select().from(leads).where(eq(leads.id, row.id));
    expect([...stored!.tags].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `t${i}`).sort());
  });
});

if (testEngine() === "postgres") {
  // A match changed by another transaction while the call waits for its lock: the call decides on
  // the committed record, so one that lost the phone is no phone match, even with the email.
  describe("matching while another transaction changes the match (PostgreSQL)", () => {
    let other: pg.Client;
    beforeAll(async () => {
      if (database.target.kind !== "postgres") throw new Error("expected PostgreSQL");
      other = new pg.Client({ connectionString: database.target.url });
      await other.connect();
    });
    afterAll(async () => {
      await other?.end();
    });

    /** Runs the match while `other` holds `change` uncommitted, then commits it. */
    async function matchAround(companyId: string, keys: MatchKeys, change: string, id: string) {
      await other.query("begin");
      await other.query(change, [id]);
      const matching = database.db.transaction((tx) => findRecordToUpdate(tx, leads, companyId, keys));
      const state = await Promise.race([
        matching.then(() => "done"),
        new Promise((resolve) => setTimeout(() => resolve("waiting"), 300)),
      ]);
      await other.query("commit");
      return { state, id: await matching };
    }

    it("takes the next phone match when the newest one loses its phone meanwhile", async () => {
      const { id: companyId } = await createCompany(database.db);
      const phone = newPhone();
      const email = `c${phone}@example.test`;
      const older = await tables[0].insert(companyId, {
        phone,
        phoneNormalized: phone,
        createdAt: minutesAgo(20),
      });
      const newest = await tables[0].insert(companyId, {
        phone,
        phoneNormalized: phone,
        email,
        emailNormalized: email,
        createdAt: minutesAgo(1),
      });
      const result = await matchAround(
        companyId,
        keysOf({ phone, email }),
        "update leads set phone = null, phone_normalized = null where id = $1",
        newest,
      );
      expect(result).toEqual({ state: "waiting", id: older });
    });

    it("falls back to the email match when the only phone match loses its phone meanwhile", async () => {
      const { id: companyId } = await createCompany(database.db);
      const phone = newPhone();
      const email = `d${phone}@example.test`;
      const emailMatch = await tables[0].insert(companyId, {
        email,
        emailNormalized: email,
        createdAt: minutesAgo(20),
      });
      const phoneMatch = await tables[0].insert(companyId, {
        phone,
        phoneNormalized: phone,
        createdAt: minutesAgo(1),
      });
      const result = await matchAround(
        companyId,
        keysOf({ phone, email }),
        "update leads set phone_normalized = '0' where id = $1",
        phoneMatch,
      );
      expect(result).toEqual({ state: "waiting", id: emailMatch });
    });
  });
}

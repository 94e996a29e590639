import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies } from "@/lib/db/schema";
import { testEngine } from "@/lib/testing/test-database";
import { createCliDatabase, runScript } from "./cli-testing";

let cli: Awaited<ReturnType<typeof createCliDatabase>>;
let dir: string;

beforeAll(async () => {
  cli = await createCliDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fcrm-import-"));
});
afterAll(async () => {
  await cli?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const rows = await cli.withDatabase((database) =>
    database.db.execute<{ n: number }>(query).then((result) => result.rows),
  );
  return Number(rows[0]!.n);
}

function file(name: string, content: unknown): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
}

const good = {
  companies: [{ id: "co_cli", name: "CLI Co" }],
  users: [
    { id: "usr_cli", company_id: "co_cli", name: "Rita Rep", email: "rita@cli.example", role: "sales_rep" },
  ],
  leads: [{ id: "lead_cli", company_id: "co_cli", name: "Lou", assigned_to: "usr_cli" }],
};

// Each case starts a process (tsx, the database): slow on a busy machine.
describe(`npm run db:import on ${testEngine()}`, { timeout: 180_000 }, () => {
  it("imports a file, prints the counts, and changes nothing the second time", async () => {
    const target = file("good.json", good);
    const first = await runScript("import", ["--", target], cli.url);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/leads: 1 \(1 new, 0 updated, 0 unchanged\)/);
    const second = await runScript("import", [target], cli.url);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/users: 1 \(0 new, 0 updated, 1 unchanged\)/);
    const rows = await cli.withDatabase((database) =>
      database.db
        .execute<{ n: number }>(sql`select count(*)::int as n from leads where company_id = 'co_cli'`)
        .then((result) => result.rows),
    );
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it("refuses a bad file: every problem by its path, exit status 1, nothing written", async () => {
    const target = file("bad.json", {
      companies: [{ id: "co_bad", name: "Bad Co" }],
      leads: [
        { id: "l1", company_id: "co_bad", name: "Ok" },
        { id: "l2", company_id: "co_bad", name: "Nope", assigned_to: "usr_missing", follow_up_date: "soon" },
      ],
    });
    const result = await runScript("import", [target], cli.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("leads[1].follow_up_date: not a date");
    expect(result.stderr).toContain('leads[1].assigned_to: user "usr_missing" not found');
    expect(result.stderr).toMatch(/nothing was written/);
    const rows = await cli.withDatabase((database) =>
      database.db
        .execute<{ n: number }>(sql`select count(*)::int as n from companies where id = 'co_bad'`)
        .then((result) => result.rows),
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it.each([
    [[], /Usage: npm run db:import -- <file.json>/],
    [["a.json", "b.json"], /Usage/],
    [["/nonexistent/file.json"], /Cannot read \/nonexistent\/file.json: ENOENT/],
    [["a.csv", "--type", "leads"], /A CSV import needs --company <id>/],
    [["a.csv", "--company", "co_x", "--type", "jobs"], /needs --type leads or --type customers/],
    [["a.json", "--company", "co_x"], /--company and --map are for CSV files/],
    [["a.csv", "--company", "co_x", "--type", "leads", "--force"], /Unknown option '--force'/],
    [
      ["/nonexistent/a.csv", "--company", "co_x", "--type", "leads"],
      /Cannot read \/nonexistent\/a.csv: ENOENT/,
    ],
  ])("refuses arguments %j with exit status 1", async (args, message) => {
    const result = await runScript("import", args, cli.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it("a JSON dry run checks and counts as the import would, and writes nothing", async () => {
    const target = file("dry.json", {
      companies: [{ id: "co_dry", name: "Dry Co" }],
      leads: [{ id: "lead_dry", company_id: "co_dry", name: "Dee" }],
    });
    const result = await runScript("import", [target, "--dry-run"], cli.url);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("nothing was written; it would write:");
    expect(result.stdout).toMatch(/leads: 1 \(1 new, 0 updated, 0 unchanged\)/);
    expect(await count(sql`select count(*)::int as n from companies where id = 'co_dry'`)).toBe(0);
  });

  it("refuses a file that is not JSON, saying where", async () => {
    const result = await runScript("import", [file("broken.json", "{ nope")], cli.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "broken.json is not valid JSON: Unexpected 'n', expected a property name in double quotes or '}' at line 1, column 3 (byte 2)",
    );
  });

  it("streams a file from FCRM_IMPORT_STREAM_THRESHOLD bytes on: same rows, same refusals", async () => {
    const doc = {
      companies: [{ id: "co_stream", name: "Stream Co" }],
      users: [
        {
          id: "usr_stream",
          company_id: "co_stream",
          name: "Zoë Rep",
          email: "zoe@stream.example",
          role: "sales_rep",
        },
      ],
      leads: Array.from({ length: 40 }, (_, i) => ({
        id: `lead_stream_${i}`,
        company_id: "co_stream",
        name: `Łukasz Café ${i} 😀`,
        tags: ['a"b', "c\\d"],
        assigned_to: "usr_stream",
      })),
    };
    const target = file("stream.json", JSON.stringify(doc, null, 2));
    const broken = file(
      "stream-broken.json",
      JSON.stringify(doc, null, 2).replace(/\n  \]\n}$/, ",\n  ]\n}"),
    );
    process.env.FCRM_IMPORT_STREAM_THRESHOLD = "0";
    try {
      const result = await runScript("import", [target], cli.url);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/leads: 40 \(40 new, 0 updated, 0 unchanged\)/);
      const refused = await runScript("import", [broken], cli.url);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /stream-broken.json is not valid JSON: Unexpected '\]' after ',' at line \d+, column 3 \(byte \d+\)/,
      );
      process.env.FCRM_IMPORT_STREAM_THRESHOLD = "lots";
      const bad = await runScript("import", [target], cli.url);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('FCRM_IMPORT_STREAM_THRESHOLD must be a number of bytes, not "lots"');
    } finally {
      delete process.env.FCRM_IMPORT_STREAM_THRESHOLD;
    }
    const rows = await cli.withDatabase((database) =>
      database.db
        .execute<{ name: string; tags: string[] }>(
          sql`select name, tags from leads where company_id = 'co_stream' and id = 'lead_stream_39'`,
        )
        .then((result) => result.rows),
    );
    expect(rows).toEqual([{ name: "Łukasz Café 39 😀", tags: ['a"b', "c\\d"] }]);
    const total = await cli.withDatabase((database) =>
      database.db
        .execute<{ n: number }>(sql`select count(*)::int as n from leads where company_id = 'co_stream'`)
        .then((result) => result.rows),
    );
    expect(Number(total[0]!.n)).toBe(40);
  });

  it("ends the progress bar before listing the problems of a refused file", async () => {
    const leads: Record<string, unknown>[] = Array.from({ length: 6_000 }, (_, i) => ({
      id: `lead_bar_${i}`,
      company_id: "co_bar",
      name: `Lead ${i}`,
    }));
    leads.push({ id: "lead_bar_bad", company_id: "co_bar", name: "Bad", follow_up_date: "soon" });
    const target = file("bar.json", { companies: [{ id: "co_bar", name: "Bar Co" }], leads });
    const result = await runScript("import", [target], cli.url);
    expect(result.code).toBe(1);
    const lines = result.stderr.split("\n");
    const refusedAt = lines.indexOf("Importing refused");
    expect(refusedAt).toBeGreaterThan(0);
    expect(lines[refusedAt - 1]).toMatch(/^Importing \[[#-]+\] /);
    expect(lines[refusedAt + 1]).toBe("leads[6000].follow_up_date: not a date");
    const rows = await cli.withDatabase((database) =>
      database.db
        .execute<{ n: number }>(sql`select count(*)::int as n from leads where company_id = 'co_bar'`)
        .then((result) => result.rows),
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });
});

describe(`npm run db:import of a CSV file on ${testEngine()}`, { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await cli.withDatabase((database) =>
      database.db
        .insert(companies)
        .values({ id: "co_csv", name: "CSV Co" })
        .then(() => undefined),
    );
  });
  const leads = sql`select count(*)::int as n from leads where company_id = 'co_csv'`;
  const csv = ["--company", "co_csv", "--type", "leads"];

  it("a dry run lists each refused row's problems, exits 1 and writes nothing", async () => {
    const target = file(
      "bad.csv",
      'First Name,Last Name,E-mail,Estimated Value\r\nAna,Silva,ana@csv.example,"$1,200.50"\r\n' +
        "Bo,,not-an-email,\r\nCy,,cy@csv.example,lots\r\n",
    );
    const result = await runScript("import", [target, ...csv, "--dry-run"], cli.url);
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")).toEqual([
      "row 3, E-mail: must be a valid email address",
      "row 4, Estimated Value: must be an amount such as 1200.50 or $1,200.50",
      "Error: 2 rows refused (listed above); nothing was written.",
      "",
    ]);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("would create 1, update 0, refuse 2");
    expect(await count(leads)).toBe(0);
    // The staged upload is gone too.
    expect(await count(sql`select count(*)::int as n from imports where company_id = 'co_csv'`)).toBe(0);
  });

  it("imports a file; the second import of it matches every row and changes nothing", async () => {
    const target = file(
      "good.csv",
      '\uFEFFName;Mobile;Email;Tags\nAna Silva;(555) 010-2000;ana@csv.example;"a; b"\nBo;;bo@csv.example;\n',
    );
    const first = await runScript("import", [target, ...csv], cli.url);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      'Columns: "Name" → name, "Mobile" → phone, "Email" → email, "Tags" → tags',
    );
    expect(first.stdout.trim().split("\n").at(-1)).toBe("created 2, updated 0");
    const activity = sql`select count(*)::int as n from record_activity where company_id = 'co_csv'`;
    const entries = await count(activity);
    expect(entries).toBe(2);

    const second = await runScript("import", [target, ...csv], cli.url);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("(updates matched on id 0, phone 1, email 1)");
    expect(second.stdout.trim().split("\n").at(-1)).toBe("created 0, updated 2");
    expect(await count(leads)).toBe(2);
    expect(await count(activity)).toBe(entries);
    const rows = await cli.withDatabase((database) =>
      database.db
        .execute<{ name: string; tags: string[] }>(
          sql`select name, tags from leads where company_id = 'co_csv' order by name`,
        )
        .then((result) => result.rows),
    );
    expect(rows).toEqual([
      { name: "Ana Silva", tags: ["a", "b"] },
      { name: "Bo", tags: [] },
    ]);
  });

  it("--map maps and ignores named columns; a bad --map is refused", async () => {
    const target = file("map.csv", "Who,Contact,Owner\nDee,dee@csv.example,a note\n");
    const result = await runScript(
      "import",
      [target, ...csv, "--dry-run", "--map", "Who=name,Contact=email,Owner="],
      cli.url,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Columns: "Who" → name, "Contact" → email');
    expect(result.stdout).toContain('Ignored: "Owner"');
    expect(result.stdout.trim().split("\n").at(-1)).toBe("would create 1, update 0, refuse 0");
    expect(await count(sql`select count(*)::int as n from leads where email = 'dee@csv.example'`)).toBe(0);

    const bad = await runScript("import", [target, ...csv, "--map", "Who=nickname"], cli.url);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--map: "nickname" is not a field of leads; the fields are name,');
  });

  it("refuses a file that is not valid CSV, naming the row", async () => {
    const target = file("broken.csv", 'Name,Notes\nAna,ok\nBo,"never closed\n');
    const result = await runScript("import", [target, ...csv], cli.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'broken.csv: The file is not valid CSV: row 3: a quoted value is never closed: a " is missing its closing "',
    );
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
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
      queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from leads where company_id = 'co_cli'`,
      ),
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
      queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from companies where id = 'co_bad'`,
      ),
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it.each([
    [[], /Usage: npm run db:import -- <file.json>/],
    [["a.json", "b.json"], /Usage/],
    [["/nonexistent/file.json"], /Cannot read \/nonexistent\/file.json: ENOENT/],
  ])("refuses arguments %j with exit status 1", async (args, message) => {
    const result = await runScript("import", args, cli.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it("refuses a file that is not JSON", async () => {
    const result = await runScript("import", [file("broken.json", "{ nope")], cli.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/broken.json is not valid JSON/);
  });
});

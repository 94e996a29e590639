import { describe, expect, it } from "vitest";
import { normalizeEmail, normalizePhone } from "@/lib/values/normalize";
import { csvRowOf } from "./csv-import-bench";
import {
  BUDGETS_MS,
  budgetChecks,
  leadsOutsideFile,
  parseOptions,
  type PhaseResult,
  type TrafficKind,
} from "./import-concurrency";
import type { LoadResult } from "./load";

describe("parseOptions", () => {
  it("defaults to a million rows, 20 s phases, 2 connections and 20 req/s per kind of traffic", () => {
    expect(parseOptions([])).toEqual({
      rows: 1_000_000,
      duration: 20,
      connections: 2,
      rate: 20,
      noBuild: false,
    });
  });

  it("reads each flag, underscores in numbers included", () => {
    expect(
      parseOptions([
        "--rows",
        "20_000",
        "--duration",
        "5",
        "--connections",
        "1",
        "--rate",
        "10",
        "--company",
        "co_x",
        "--no-build",
        "--out",
        "x.json",
      ]),
    ).toEqual({
      rows: 20_000,
      duration: 5,
      connections: 1,
      rate: 10,
      company: "co_x",
      noBuild: true,
      out: "x.json",
    });
  });

  it("refuses a number that is not whole or too small, and an unknown flag", () => {
    expect(() => parseOptions(["--rows", "1.5"])).toThrow("--rows must be a whole number");
    expect(() => parseOptions(["--rate", "0"])).toThrow("--rate must be a whole number ≥ 1");
    expect(() => parseOptions(["--bogus"])).toThrow();
  });
});

describe("leadsOutsideFile", () => {
  const row = (i: number) => csvRowOf(i);
  const phoneOf = (i: number) => normalizePhone(row(i)[3]);
  const emailOf = (i: number) => normalizeEmail(row(i)[2]);

  it("leaves out the leads whose phone or email a row of the file carries, within the file's rows", () => {
    const candidates = [
      { id: "lead_a", phone: phoneOf(3), email: null },
      { id: "lead_b", phone: "+15125550100", email: "someone@elsewhere.example" },
      { id: "lead_c", phone: null, email: emailOf(7) },
      // Row 40 is past a file of 10 rows: its lead is outside that file.
      { id: "lead_d", phone: phoneOf(40), email: emailOf(40) },
    ];
    expect(leadsOutsideFile(candidates, 10, 10)).toEqual(["lead_b", "lead_d"]);
    expect(leadsOutsideFile(candidates, 50, 10)).toEqual(["lead_b"]);
  });

  it("answers at most the number wanted, in the candidates' order", () => {
    const candidates = ["lead_1", "lead_2", "lead_3"].map((id) => ({ id, phone: null, email: null }));
    expect(leadsOutsideFile(candidates, 10, 2)).toEqual(["lead_1", "lead_2"]);
  });
});

describe("budgetChecks", () => {
  const load = (p95: number, extra: Partial<LoadResult> = {}): LoadResult => ({
    requests: 100,
    seconds: 5,
    rps: 20,
    p50: p95 / 2,
    p95,
    p99: p95,
    max: p95,
    mean: p95 / 2,
    unexpected: 0,
    errors: 0,
    statuses: { "200": 100 },
    ...extra,
  });
  const phase = (name: string, traffic: Record<TrafficKind, LoadResult>): PhaseResult => ({
    name,
    duringImport: true,
    seconds: 5,
    traffic,
    loadBefore: "load average: 1.00, 1.00, 1.00",
    loadAfter: "load average: 1.00, 1.00, 1.00",
  });

  it("checks lists against 50 ms and writes against 20 ms", () => {
    const checks = budgetChecks([phase("import", { list: load(50), create: load(20.5), update: load(19) })]);
    expect(checks.map((c) => [c.kind, c.budgetMs, c.met])).toEqual([
      ["list", BUDGETS_MS.list, true],
      ["create", BUDGETS_MS.write, false],
      ["update", BUDGETS_MS.write, true],
    ]);
  });

  it("misses a budget when any request failed or none was answered, however fast the rest", () => {
    const checks = budgetChecks([
      phase("import", {
        list: load(5, { unexpected: 1, statuses: { "200": 99, "503": 1 } }),
        create: load(5, { errors: 2 }),
        update: load(0, { requests: 0 }),
      }),
    ]);
    expect(checks.map((c) => [c.failed, c.met])).toEqual([
      [1, false],
      [2, false],
      [0, false],
    ]);
  });
});

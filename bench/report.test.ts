import { describe, expect, it } from "vitest";
import { recordIdOf } from "./data/sql";
import { heaviestNode, type PlanNode } from "./explain";
import { median, percentile, summarize } from "./load";
import { formatProgress } from "./progress";
import {
  benchReportProblems,
  checkTargets,
  markdownRun,
  markdownTable,
  p95Chart,
  replaceSection,
  RESULTS_DIR_MAX_FILES,
  RESULTS_MD_MAX_LINES,
  roomForRun,
  type BenchRun,
  type EngineRun,
} from "./report";
import { matchPattern } from "./routes";
import { firstDifference, parseOptions, resultsSection } from "./run";

const load = (p95: number, rps: number) => ({
  requests: 100,
  seconds: 1,
  rps,
  p50: p95 / 2,
  p95,
  p99: p95 * 1.5,
  max: p95 * 2,
  mean: p95 / 2,
  unexpected: 0,
  errors: 0,
  statuses: { 200: 100 },
});

const engine: EngineRun = {
  engine: "postgres",
  database: "PostgreSQL (test)",
  generate: { reused: true, seconds: 1, counts: { leads: 10 } },
  cases: [
    { id: "leads-default", title: "GET /leads", kind: "list", ours: load(40, 300), baseline: load(20, 600) },
    { id: "lead-by-id", title: "GET /leads/{id}", kind: "get", ours: load(8, 1600), baseline: load(5, 1800) },
    {
      id: "leads-create",
      title: "POST /leads",
      kind: "upsert",
      ours: load(25, 200),
      baseline: load(10, 230),
    },
    { id: "pins-default", title: "GET /pins", kind: "list", broken: "ours: status 500 | boom" },
  ],
};

describe("percentiles", () => {
  it("are nearest-rank over the sorted latencies", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 95)).toBe(0);
    expect(percentile([7], 99)).toBe(7);
  });

  it("and the median is the middle value, or the mean of the two middle ones, in any order", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
    expect(median([])).toBeNaN();
  });

  it("merge the halves of a load: all latencies, summed time, summed statuses", () => {
    const result = summarize([
      { latencies: [1, 2, 3], seconds: 1, unexpected: 1, errors: 0, statuses: { 200: 2, 500: 1 } },
      { latencies: [4, 5, 6, 7], seconds: 1, unexpected: 0, errors: 2, statuses: { 200: 4 } },
    ]);
    expect(result.requests).toBe(7);
    expect(result.rps).toBe(3.5);
    expect(result.p50).toBe(4);
    expect(result.max).toBe(7);
    expect(result.statuses).toEqual({ 200: 6, 500: 1 });
    expect(result.unexpected + result.errors).toBe(3);
  });
});

describe("targets", () => {
  it("checks each case's kind against issue #6's targets and the baseline ratio", () => {
    const checks = checkTargets(engine, { leads: 1_000_000, seconds: 150, rowsPerSecond: 6666 });
    const find = (caseId: string, target: string) =>
      checks.find((c) => c.caseId === caseId && c.target === target);
    expect(find("leads-default", "p95 ≤ 50 ms")?.met).toBe(true);
    expect(find("leads-default", "req/s ≥ 0.8 × baseline")?.met).toBe(false);
    expect(find("lead-by-id", "p95 ≤ 10 ms")?.met).toBe(true);
    expect(find("lead-by-id", "≥ 1,500 req/s")?.met).toBe(true);
    expect(find("leads-create", "p95 ≤ 20 ms")?.met).toBe(false);
    expect(find("pins-default", "works")?.met).toBe(false);
    expect(find("import-1m-leads", "≤ 120 s")?.met).toBe(false);
    expect(checks.filter((c) => c.target === "works").map((c) => c.caseId)).toEqual(["pins-default"]);
  });

  it("checks the CSV import against issue #53's targets, the import against the JSON import's time", () => {
    const phase = (seconds: number, rssMb: number) => ({
      seconds,
      memory: { rssMb, heapMb: rssMb / 2 },
      created: 980_000,
      updated: 20_000,
      refused: 0,
    });
    const csv = {
      leads: 1_000_000,
      fileMb: 150,
      stage: { seconds: 40, memory: { rssMb: 30, heapMb: 10 } },
      dryRun: phase(55, 120),
      import: phase(310, 350),
    };
    const checks = checkTargets(engine, { leads: 1_000_000, seconds: 150, rowsPerSecond: 6666 }, csv).filter(
      (c) => c.caseId === "import-csv-leads",
    );
    expect(checks.map((c) => [c.target, c.value, c.met])).toEqual([
      ["dry run ≤ 60 s", "55 s", true],
      ["import ≤ 2 × the JSON import's", "2.07 ×", false],
      ["dry run: memory growth ≤ 300 MB", "120 MB", true],
      ["import: memory growth ≤ 300 MB", "350 MB", false],
    ]);
    // Without the JSON import's time there is nothing to compare the import with.
    expect(checkTargets(engine, undefined, csv).map((c) => c.target)).not.toContain(
      "import ≤ 2 × the JSON import's",
    );
  });

  it("meets none of a case's targets when some of its answers were not the expected status", () => {
    const timedOut = { ...load(4400, 0.4), requests: 4, unexpected: 3, statuses: { 200: 1, 503: 3 } };
    const checks = checkTargets({
      ...engine,
      cases: [
        {
          id: "report-jobs-all",
          title: "GET /reports/serviced-jobs",
          kind: "report",
          ours: timedOut,
          baseline: load(4400, 0.2),
        },
        {
          id: "lead-by-id",
          title: "GET /leads/{id}",
          kind: "get",
          ours: { ...load(8, 1600), errors: 1 },
          baseline: load(5, 1800),
        },
      ],
    });
    expect(checks.filter((c) => c.caseId === "report-jobs-all")).toEqual([
      { caseId: "report-jobs-all", target: "works", value: "3 of 4 requests unexpected", met: false },
      { caseId: "report-jobs-all", target: "req/s ≥ 0.8 × baseline", value: "2.00 ×", met: false },
    ]);
    expect(checks.filter((c) => c.caseId === "lead-by-id").map((c) => [c.target, c.met])).toEqual([
      ["works", false],
      ["p95 ≤ 10 ms", false],
      ["≥ 1,500 req/s", false],
      ["req/s ≥ 0.8 × baseline", false],
    ]);
  });
});

describe("report", () => {
  it("tables ours and the baseline side by side with their ratios, and names broken cases", () => {
    const table = markdownTable(engine);
    expect(table).toContain("| GET /leads | 20 / 40 / 60 | 300 | 10 / 20 / 30 | 600 | 2.00 | 0.50 |");
    expect(table).toContain("**broken**: ours: status 500 \\| boom");
  });

  it("draws one pair of bars per measured case", () => {
    const svg = p95Chart(engine, "test <chart>");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("test &lt;chart&gt;");
    expect(svg.match(/fill="#2563eb"/g)?.length).toBe(1 + 3);
    expect(svg).toContain(">ours (next start)<");
    expect(p95Chart(engine, "two", 2)).toContain(">ours (npm start, 2 workers)<");
    expect(p95Chart(engine, "one", 1, true)).toContain(">ours (npm start)<");
  });

  it("says which of our servers ran: next start, or npm start with its workers", () => {
    const run: BenchRun = {
      date: "2026-11-23",
      scale: "large",
      machine: {
        cpus: 2,
        cpuModel: "cpu",
        memoryGb: 24,
        os: "Linux",
        node: "v20",
        postgres: "PostgreSQL 17",
        next: "16",
        pglite: "0.5",
      },
      settings: { connections: 8, duration: 10, rounds: 2 },
      loadBefore: "load average: 0.1",
      loadAfter: "load average: 0.2",
      engines: [engine],
    };
    // A run from before --workers had one process.
    expect(markdownRun(run)).toContain("Ours: `next start` (one process). Load: 10 s per server per case");
    expect(markdownRun({ ...run, settings: { ...run.settings, workers: 2 } })).toContain(
      "Ours: `npm start` with WEB_CONCURRENCY=2 (2 worker processes; the baseline is one process).",
    );
  });

  it("replaces only its own section of RESULTS.md", () => {
    const doc = "# Results\n\nhand-written findings\n";
    const once = replaceSection(doc, "large", "first");
    expect(once).toContain("hand-written findings");
    expect(once).toContain("<!-- bench:large -->\nfirst\n<!-- /bench:large -->");
    const twice = replaceSection(`${once}\nmore notes\n`, "large", "second");
    expect(twice).not.toContain("first");
    expect(twice).toContain("second");
    expect(twice).toContain("more notes");
    expect(replaceSection(twice, "small", "other")).toContain("second");
  });

  it("names the heaviest plan node by its own time, children's time taken out", () => {
    const plan: PlanNode = {
      "Node Type": "Limit",
      "Actual Total Time": 10,
      "Actual Loops": 1,
      Plans: [
        {
          "Node Type": "Index Scan",
          "Index Name": "leads_active_created_idx",
          "Relation Name": "leads",
          "Actual Total Time": 9,
          "Actual Rows": 50,
          "Actual Loops": 1,
        },
      ],
    };
    expect(heaviestNode(plan)).toBe("Index Scan using leads_active_created_idx on leads (9.0 ms, 50 rows)");
  });

  it("formats progress with the rate and what is being done", () => {
    expect(formatProgress("generate", 0.5, 500, 1000, 2, "leads")).toBe(
      "generate [############............]  50% 500/1,000 rows 2s 250/s leads",
    );
  });
});

/** An environment with only the given variables (NODE_ENV is required by the type). */
const env = (vars: Record<string, string> = {}): NodeJS.ProcessEnv => ({ NODE_ENV: "test", ...vars });

describe("options and routes", () => {
  it("runs the smoke scale on PGlite unless a server is given, with a fixed request count", () => {
    const tiny = parseOptions(["--scale", "tiny"], env());
    expect(tiny.engines).toEqual(["pglite"]);
    expect(tiny.amount).toBe(10);
    expect(tiny.writeResultsMd).toBe(false);
    expect(parseOptions(["--scale", "tiny"], env({ TEST_DATABASE_URL: "postgres://x/y" })).engines).toEqual([
      "postgres",
    ]);
    const large = parseOptions(["--scale", "large", "--connections", "4"], env());
    expect(large.engines).toEqual(["postgres"]);
    expect(large.duration).toBe(10);
    expect(large.connections).toBe(4);
    expect(large.importLeads).toBe(1_000_000);
    expect(parseOptions(["--scale", "small"], env()).engines).toEqual(["postgres", "pglite"]);
    expect(() => parseOptions(["--scale", "huge"], env())).toThrow(/--scale/);
    expect(() => parseOptions(["--duration", "-1"], env())).toThrow(/--duration/);
  });

  it("runs our server with --workers processes, on PostgreSQL only, each count in a section of its own", () => {
    expect(parseOptions(["--scale", "large"], env()).workers).toBe(1);
    const two = parseOptions(["--scale", "large", "--workers", "2"], env());
    expect(two.workers).toBe(2);
    expect(
      parseOptions(["--scale", "tiny", "--workers", "2"], env({ TEST_DATABASE_URL: "postgres://x/y" }))
        .workers,
    ).toBe(2);
    expect(() => parseOptions(["--scale", "tiny", "--workers", "2"], env())).toThrow(
      /--workers above 1 needs PostgreSQL/,
    );
    expect(() => parseOptions(["--scale", "small", "--workers", "2"], env())).toThrow(/--engine postgres/);
    expect(parseOptions(["--scale", "small", "--workers", "2", "--engine", "postgres"], env()).workers).toBe(
      2,
    );
    for (const bad of ["0", "-1", "1.5", "abc"])
      expect(() => parseOptions(["--workers", bad], env())).toThrow(/--workers/);

    expect(resultsSection({ scale: "large", workers: 1, npmStart: false })).toEqual({
      key: "large",
      heading: "## Scale large",
    });
    expect(resultsSection({ scale: "large", workers: 2, npmStart: true })).toEqual({
      key: "large-2-workers",
      heading: "## Scale large — 2 workers",
    });
    expect(resultsSection({ scale: "large", label: "pool", workers: 2, npmStart: true })).toEqual({
      key: "large-pool-2-workers",
      heading: "## Scale large — pool, 2 workers",
    });
  });

  it("runs our server as npm start with --npm-start (always with several workers), in a section of its own", () => {
    expect(parseOptions(["--scale", "large"], env()).npmStart).toBe(false);
    expect(parseOptions(["--scale", "large", "--npm-start"], env()).npmStart).toBe(true);
    expect(parseOptions(["--scale", "large", "--workers", "2"], env()).npmStart).toBe(true);
    // The embedded database is fine: npm start holds it in its one process.
    expect(parseOptions(["--scale", "tiny", "--npm-start"], env()).engines).toEqual(["pglite"]);
    expect(resultsSection({ scale: "large", label: "x", workers: 1, npmStart: true })).toEqual({
      key: "large-x-npm-start",
      heading: "## Scale large — x, npm start",
    });
  });

  it("matches paths with an :id and decodes it", () => {
    expect(matchPattern("/api/leads/lead_1%20x", ["/api/leads", "/api/leads/:id"])).toEqual({
      pattern: "/api/leads/:id",
      params: { id: "lead_1 x" },
    });
    expect(matchPattern("/api/leads", ["/api/leads/:id"])).toBeUndefined();
  });

  it("says where two answers first differ", () => {
    expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe("$.a[1].b: 2 ≠ 3");
    expect(firstDifference({ a: 1 }, { a: 1, c: "x" })).toBe('$.c: (absent) ≠ "x"');
    expect(firstDifference([1], [1])).toBe("");
  });

  it("makes ids in the shape of lib/ids.ts", () => {
    expect(recordIdOf("lead", 3, Date.UTC(2026, 0, 1), 42)).toMatch(/^lead_[0-9a-hjkmnp-tv-z]{26}$/);
  });
});

describe("the bench report's bounds", () => {
  const files = (n: number) => Array.from({ length: n }, (_, i) => `run-${i}.json`);
  const text = (lines: number) => "line\n".repeat(lines);

  it("accept RESULTS.md at its line limit and bench/results at its file limit", () => {
    expect(benchReportProblems(text(RESULTS_MD_MAX_LINES), files(RESULTS_DIR_MAX_FILES))).toEqual([]);
  });

  it("name each bound passed, with the count", () => {
    const problems = benchReportProblems(text(RESULTS_MD_MAX_LINES + 1), files(RESULTS_DIR_MAX_FILES + 1));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(`${RESULTS_MD_MAX_LINES + 1} lines, at most ${RESULTS_MD_MAX_LINES}`);
    expect(problems[1]).toContain(`${RESULTS_DIR_MAX_FILES + 1} files, at most ${RESULTS_DIR_MAX_FILES}`);
  });

  it("let a run start only when its JSON and one chart per engine fit", () => {
    expect(roomForRun(files(RESULTS_DIR_MAX_FILES - 3), 2)).toBeUndefined();
    expect(roomForRun(files(RESULTS_DIR_MAX_FILES - 2), 2)).toContain("this run writes 3");
  });
});

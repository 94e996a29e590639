import type { CaseKind } from "./cases";
import type { GenerateResult } from "./data/generate";
import type { CsvImportMeasure } from "./csv-import-bench";
import type { LoadResult } from "./load";
import type { ScaleName } from "./scales";

/** Everything one run measured: written as bench/results/<date>-<scale>.json. */
export interface BenchRun {
  date: string;
  scale: ScaleName;
  machine: Machine;
  settings: {
    connections: number;
    duration: number;
    amount?: number;
    rounds: number;
    /** Worker processes of our server (WEB_CONCURRENCY); runs before --workers had one. */
    workers?: number;
    /** Ours ran as `npm start` with one process (--npm-start); more workers always do. */
    npmStart?: boolean;
    /** The build was older than the sources: ours may not run the SQL the baseline replays. */
    buildStale?: boolean;
  };
  /** `uptime` before and after: the machine is shared, its load shifts the numbers. */
  loadBefore: string;
  loadAfter: string;
  engines: EngineRun[];
  /** Import of 1M leads through lib/import (large scale only). */
  importRun?: ImportMeasure;
  /** The same number of leads from a CSV file through lib/domain/imports (issue #53). */
  csvImportRun?: CsvImportMeasure;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  os: string;
  node: string;
  postgres: string;
  next: string;
  pglite: string;
}

export interface EngineRun {
  engine: "postgres" | "pglite";
  database: string;
  generate: GenerateResult;
  cases: CaseResult[];
}

export interface DbTime {
  /** EXPLAIN ANALYZE: per group of parallel statements the slowest, summed (planning + execution). */
  dbMs: number;
  authMs: number;
  top: string;
  heaviest: string;
  statements: number;
}

export interface CaseResult {
  id: string;
  title: string;
  kind: CaseKind;
  /** Connections of this case's load when fewer than the run's (the reports). */
  connections?: number;
  /** Why the case is broken (wrong status or shape, or the two servers disagree); then no load. */
  broken?: string;
  ours?: LoadResult;
  baseline?: LoadResult;
  db?: DbTime;
}

export interface ImportMeasure {
  leads: number;
  seconds: number;
  rowsPerSecond: number;
  note?: string;
}

export interface TargetCheck {
  caseId: string;
  target: string;
  value: string;
  met: boolean;
}

const r1 = (n: number | undefined) =>
  n === undefined ? "–" : n < 10 ? n.toFixed(1) : Math.round(n).toString();
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? undefined : a / b;

/** The issue's targets (issue #6 item 5), checked against one engine's results. */
export function checkTargets(
  engine: EngineRun,
  importRun?: ImportMeasure,
  csvImportRun?: CsvImportMeasure,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const c of engine.cases) {
    if (c.broken || !c.ours) {
      checks.push({ caseId: c.id, target: "works", value: c.broken ?? "not run", met: false });
      continue;
    }
    const p95 = c.ours.p95;
    // Answers other than the case's expected status (a 503 at the statement timeout) are counted
    // in the latencies and the rate too: no target of a case with any of them is met.
    const failed = c.ours.unexpected + c.ours.errors;
    if (failed > 0)
      checks.push({
        caseId: c.id,
        target: "works",
        value: `${failed} of ${c.ours.requests} requests unexpected`,
        met: false,
      });
    const check = (target: string, value: string, met: boolean) =>
      checks.push({ caseId: c.id, target, value, met: met && failed === 0 });
    if (c.kind === "list") check("p95 ≤ 50 ms", `${r1(p95)} ms`, p95 <= 50);
    if (c.kind === "get") check("p95 ≤ 10 ms", `${r1(p95)} ms`, p95 <= 10);
    if (c.id === "lead-by-id") check("≥ 1,500 req/s", `${r1(c.ours.rps)} req/s`, c.ours.rps >= 1500);
    if (c.kind === "upsert") check("p95 ≤ 20 ms", `${r1(p95)} ms`, p95 <= 20);
    if (c.id === "leads-bulk-10k") check("p95 ≤ 2 s", `${r1(p95)} ms`, p95 <= 2000);
    const throughput = ratio(c.ours.rps, c.baseline?.rps);
    if (throughput !== undefined)
      check("req/s ≥ 0.8 × baseline", `${throughput.toFixed(2)} ×`, throughput >= 0.8);
  }
  if (importRun)
    checks.push({
      caseId: "import-1m-leads",
      target: "≤ 120 s",
      value: `${r1(importRun.seconds)} s`,
      met: importRun.seconds <= 120,
    });
  if (csvImportRun && !csvImportRun.note?.startsWith("failed"))
    checks.push(...csvChecks(csvImportRun, importRun));
  return checks;
}

/** Issue #53: the dry run ≤ 60 s, the import ≤ 2× the JSON import's, memory growth ≤ 300 MB in either. */
function csvChecks(csv: CsvImportMeasure, json?: ImportMeasure): TargetCheck[] {
  const caseId = "import-csv-leads";
  const checks: TargetCheck[] = [
    { caseId, target: "dry run ≤ 60 s", value: `${r1(csv.dryRun.seconds)} s`, met: csv.dryRun.seconds <= 60 },
  ];
  if (json && json.seconds > 0)
    checks.push({
      caseId,
      target: "import ≤ 2 × the JSON import's",
      value: `${(csv.import.seconds / json.seconds).toFixed(2)} ×`,
      met: csv.import.seconds <= 2 * json.seconds,
    });
  for (const [phase, { memory }] of [
    ["dry run", csv.dryRun],
    ["import", csv.import],
  ] as const)
    checks.push({
      caseId,
      target: `${phase}: memory growth ≤ 300 MB`,
      value: `${r1(memory.rssMb)} MB`,
      met: memory.rssMb <= 300,
    });
  return checks;
}

function loadCells(load: LoadResult | undefined): string[] {
  if (!load) return ["–", "–"];
  const errors = load.unexpected + load.errors;
  return [
    `${r1(load.p50)} / ${r1(load.p95)} / ${r1(load.p99)}`,
    `${r1(load.rps)}${errors ? ` (${errors} err)` : ""}`,
  ];
}

const cpuCell = (ms: number | undefined) => (ms === undefined ? "–" : ms.toFixed(2));

/** The markdown table of one engine: ours and baseline side by side, their ratio, the database's time. */
export function markdownTable(engine: EngineRun): string {
  const head =
    "| case | ours p50 / p95 / p99 ms | ours req/s | baseline p50 / p95 / p99 ms | baseline req/s | p95 ours/base | req/s ours/base | server CPU ms/req ours / base | DB ms (EXPLAIN) | heaviest plan node |";
  const rule = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|";
  const rows = engine.cases.map((c) => {
    if (c.broken)
      return `| ${c.title} | **broken**: ${c.broken.replace(/\|/g, "\\|").slice(0, 200)} | | | | | | | | |`;
    const p95 = ratio(c.ours?.p95, c.baseline?.p95);
    const rps = ratio(c.ours?.rps, c.baseline?.rps);
    return [
      "",
      ` ${c.title}${c.connections ? ` (${c.connections} conn.)` : ""} `,
      ...loadCells(c.ours).map((x) => ` ${x} `),
      ...loadCells(c.baseline).map((x) => ` ${x} `),
      ` ${p95 === undefined ? "–" : p95.toFixed(2)} `,
      ` ${rps === undefined ? "–" : rps.toFixed(2)} `,
      ` ${cpuCell(c.ours?.cpuPerRequestMs)} / ${cpuCell(c.baseline?.cpuPerRequestMs)} `,
      ` ${c.db ? `${r1(c.db.dbMs)} (key ${r1(c.db.authMs)})` : "–"} `,
      ` ${c.db?.heaviest.replace(/\|/g, "\\|") ?? "–"} `,
      "",
    ].join("|");
  });
  return [head, rule, ...rows].join("\n");
}

export function markdownTargets(checks: readonly TargetCheck[]): string {
  const missed = checks.filter((c) => !c.met);
  const lines = [
    `${checks.length - missed.length} of ${checks.length} target checks met.`,
    "",
    "| case | target | measured | |",
    "|---|---|---:|---|",
    ...checks.map((c) => `| ${c.caseId} | ${c.target} | ${c.value} | ${c.met ? "met" : "**missed**"} |`),
  ];
  return lines.join("\n");
}

/** Our server, as the chart's legend and the bench's log name it. */
export function oursServerName(workers: number, npmStart = false): string {
  if (workers > 1) return `npm start, ${workers} workers`;
  return npmStart ? "npm start" : "next start";
}

/** Which of our servers ran: `next start` or `npm start` (one process), or `npm start` with its workers. */
function oursServer(workers: number, npmStart = false): string {
  if (workers > 1)
    return `Ours: \`npm start\` with WEB_CONCURRENCY=${workers} (${workers} worker processes; the baseline is one process).`;
  return `Ours: \`${oursServerName(1, npmStart)}\` (one process).`;
}

export function markdownRun(run: BenchRun, chartFile?: string): string {
  const m = run.machine;
  const lines = [
    `Run of ${run.date}, scale **${run.scale}**. Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, ${m.os};`,
    `Node ${m.node}, ${m.postgres}, Next.js ${m.next}, PGlite ${m.pglite}. ${oursServer(run.settings.workers ?? 1, run.settings.npmStart)} Load: ${run.settings.amount ? `${run.settings.amount} requests` : `${run.settings.duration} s`} per server per case at ${run.settings.connections} connections, ${run.settings.rounds === 2 ? "in two halves, ours–baseline then baseline–ours" : "ours then baseline"} (load generator on the same machine).`,
    "",
    `Machine load (uptime) before: \`${run.loadBefore}\`; after: \`${run.loadAfter}\`.`,
    "",
    ...(run.settings.buildStale
      ? [
          "**Warning:** the build was older than the sources; ours may not have run the SQL the baseline replayed.",
          "",
        ]
      : []),
  ];
  for (const engine of run.engines) {
    const g = engine.generate;
    lines.push(
      `### ${engine.engine === "postgres" ? "PostgreSQL" : "PGlite"} — ${engine.database}`,
      "",
      `Data: ${g.reused ? "re-used (generated earlier in" : "generated in"} ${r1(g.seconds)} s${g.reused ? ")" : ""}: ${Object.entries(
        g.counts,
      )
        .filter(([, n]) => n > 0)
        .map(([t, n]) => `${t} ${n.toLocaleString("en-US")}`)
        .join(", ")}.`,
      "",
      markdownTable(engine),
      "",
    );
  }
  if (chartFile) lines.push(`![p95 per case, ours and baseline](${chartFile})`, "");
  if (run.importRun) {
    const i = run.importRun;
    lines.push(
      `Import through lib/import (importDocument, one transaction): ${i.leads.toLocaleString("en-US")} leads in ${r1(i.seconds)} s (${Math.round(
        i.rowsPerSecond,
      ).toLocaleString("en-US")} rows/s)${i.note ? `; ${i.note}` : ""}.`,
      "",
    );
  }
  if (run.csvImportRun) {
    const c = run.csvImportRun;
    lines.push(
      c.note?.startsWith("failed")
        ? `CSV import (lib/domain/imports): ${c.note}.`
        : `CSV import through lib/domain/imports, ${c.leads.toLocaleString("en-US")} leads (${r1(c.fileMb)} MB): staged in ${r1(c.stage.seconds)} s, dry run ${r1(c.dryRun.seconds)} s (RSS +${r1(c.dryRun.memory.rssMb)} MB), import ${r1(c.import.seconds)} s (RSS +${r1(c.import.memory.rssMb)} MB): created ${c.import.created.toLocaleString("en-US")}, updated ${c.import.updated.toLocaleString("en-US")}${c.note ? `; ${c.note}` : ""}.`,
      "",
    );
  }
  const primary = run.engines.find((e) => e.engine === "postgres") ?? run.engines[0];
  if (primary)
    lines.push(
      `Targets (issue #6), ${primary.engine}:`,
      "",
      markdownTargets(checkTargets(primary, run.importRun, run.csvImportRun)),
      "",
    );
  return lines.join("\n");
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A horizontal bar chart of p95 per case, ours and baseline, on a log scale (lists and reports differ by 100×). */
export function p95Chart(engine: EngineRun, title: string, workers = 1, npmStart = false): string {
  const cases = engine.cases.filter((c) => c.ours || c.baseline);
  const labelWidth = 330;
  const plotWidth = 520;
  const rowHeight = 26;
  const top = 58;
  const height = top + cases.length * rowHeight + 40;
  const width = labelWidth + plotWidth + 90;
  const maxValue = Math.max(10, ...cases.flatMap((c) => [c.ours?.p95 ?? 0, c.baseline?.p95 ?? 0]));
  const decades = Math.ceil(Math.log10(maxValue));
  const x = (ms: number) => labelWidth + (Math.log10(Math.max(ms, 1)) / decades) * plotWidth;
  const ours = `ours (${oursServerName(workers, npmStart)})`;
  const oursWidth = workers > 1 ? 200 : 140;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="600">${escapeXml(title)}</text>`,
    `<rect x="${labelWidth}" y="28" width="12" height="10" fill="#2563eb"/><text x="${labelWidth + 16}" y="37">${ours}</text>`,
    `<rect x="${labelWidth + oursWidth}" y="28" width="12" height="10" fill="#9ca3af"/><text x="${labelWidth + oursWidth + 16}" y="37">baseline (node:http + driver)</text>`,
  ];
  for (let d = 0; d <= decades; d++) {
    const gx = x(10 ** d);
    parts.push(
      `<line x1="${gx}" y1="${top - 6}" x2="${gx}" y2="${top + cases.length * rowHeight}" stroke="#e5e7eb"/>`,
      `<text x="${gx}" y="${top + cases.length * rowHeight + 16}" text-anchor="middle" fill="#6b7280">${10 ** d} ms</text>`,
    );
  }
  const target = x(50);
  parts.push(
    `<line x1="${target}" y1="${top - 6}" x2="${target}" y2="${top + cases.length * rowHeight}" stroke="#dc2626" stroke-dasharray="4 3"/>`,
    `<text x="${target + 3}" y="${top - 8}" fill="#dc2626" font-size="10">list target 50 ms</text>`,
  );
  cases.forEach((c, i) => {
    const y = top + i * rowHeight;
    parts.push(`<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeXml(c.title)}</text>`);
    const bar = (value: number | undefined, dy: number, color: string) => {
      if (value === undefined) return;
      const w = Math.max(1, x(value) - labelWidth);
      parts.push(
        `<rect x="${labelWidth}" y="${y + dy}" width="${w.toFixed(1)}" height="10" fill="${color}"/>`,
        `<text x="${labelWidth + w + 4}" y="${y + dy + 9}" fill="#374151" font-size="10">${r1(value)}</text>`,
      );
    };
    bar(c.ours?.p95, 2, "#2563eb");
    bar(c.baseline?.p95, 13, "#9ca3af");
  });
  parts.push("</svg>");
  return parts.join("\n");
}

/** Replaces the block between `<!-- bench:<key> -->` and `<!-- /bench:<key> -->`, or appends it. */
export function replaceSection(document: string, key: string, content: string): string {
  const start = `<!-- bench:${key} -->`;
  const end = `<!-- /bench:${key} -->`;
  const block = `${start}\n${content.trim()}\n${end}`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from !== -1 && to > from) return `${document.slice(0, from)}${block}${document.slice(to + end.length)}`;
  return `${document.trimEnd()}\n\n${block}\n`;
}

/** RESULTS.md is the current state, not a diary: `npm run verify` keeps it within these bounds. */
export const RESULTS_MD_MAX_LINES = 300;
export const RESULTS_DIR_MAX_FILES = 10;

/** What breaks the bounds, one sentence each: RESULTS.md's text and the files of bench/results. */
export function benchReportProblems(resultsMd: string, resultFiles: readonly string[]): string[] {
  const problems: string[] = [];
  const lines = resultsMd.split("\n").length - (resultsMd.endsWith("\n") ? 1 : 0);
  if (lines > RESULTS_MD_MAX_LINES)
    problems.push(
      `bench/RESULTS.md has ${lines} lines, at most ${RESULTS_MD_MAX_LINES}: summarise the newest run ` +
        "into its area's table (its numbers replace the case's older ones) and drop what it supersedes.",
    );
  if (resultFiles.length > RESULTS_DIR_MAX_FILES)
    problems.push(
      `bench/results holds ${resultFiles.length} files, at most ${RESULTS_DIR_MAX_FILES}: remove those ` +
        "RESULTS.md no longer cites (git keeps them).",
    );
  return problems;
}

/**
 * Before a run that writes into bench/results: whether its files (a JSON and a chart per engine)
 * fit within the bound. Checked before the load, so that a full folder costs seconds, not a run.
 */
export function roomForRun(resultFiles: readonly string[], engines: number): string | undefined {
  const writes = 1 + engines;
  if (resultFiles.length + writes <= RESULTS_DIR_MAX_FILES) return undefined;
  return (
    `bench/results holds ${resultFiles.length} files and this run writes ${writes}: at most ` +
    `${RESULTS_DIR_MAX_FILES} (npm run verify). Remove the files RESULTS.md no longer cites (git keeps ` +
    "them), then run again."
  );
}

import type { CapturedStatement } from "./capture";
import type { RawDb } from "./db";

/** One node of an EXPLAIN (FORMAT JSON) plan, the fields we read. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Alias?: string;
  "Actual Total Time"?: number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Sort Method"?: string;
  Plans?: PlanNode[];
}

export interface StatementPlan {
  /** 1-based position among the case's statements. */
  index: number;
  group: number;
  auth: boolean;
  text: string;
  planningMs: number;
  executionMs: number;
  /** The root node and the node with the most exclusive time. */
  top: string;
  heaviest: string;
  /** The plan as indented text (kept out of the committed results: see bench/.cache). */
  plan: string;
}

export interface CaseExplain {
  /** The database's share of a request: per group of parallel statements the slowest, summed. */
  dbMs: number;
  /** Of which the API key check (the same for every case). */
  authMs: number;
  /** The slowest non-auth statement's root and heaviest node. */
  top: string;
  heaviest: string;
  statements: StatementPlan[];
}

const CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

export const isAuthStatement = (text: string) => /\bapi_key_usage\b/.test(text);

function describe(node: PlanNode): string {
  const on = node["Index Name"]
    ? ` using ${node["Index Name"]}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}`
    : node["Relation Name"]
      ? ` on ${node["Relation Name"]}`
      : "";
  return `${node["Node Type"]}${on}`;
}

/** Time spent in the node itself (its children's time taken out), over all loops. */
function exclusiveMs(node: PlanNode): number {
  const total = (node["Actual Total Time"] ?? 0) * (node["Actual Loops"] ?? 1);
  const children = (node.Plans ?? []).reduce(
    (sum, child) => sum + (child["Actual Total Time"] ?? 0) * (child["Actual Loops"] ?? 1),
    0,
  );
  return Math.max(0, total - children);
}

function walk(node: PlanNode, visit: (n: PlanNode, depth: number) => void, depth = 0): void {
  visit(node, depth);
  for (const child of node.Plans ?? []) walk(child, visit, depth + 1);
}

export function heaviestNode(root: PlanNode): string {
  let best = root;
  let bestMs = -1;
  walk(root, (n) => {
    const ms = exclusiveMs(n);
    if (ms > bestMs) {
      best = n;
      bestMs = ms;
    }
  });
  const rows = (best["Actual Rows"] ?? 0) * (best["Actual Loops"] ?? 1);
  return `${describe(best)} (${bestMs.toFixed(1)} ms, ${rows.toLocaleString("en-US")} rows)`;
}

export function planText(root: PlanNode): string {
  const lines: string[] = [];
  walk(root, (n, depth) => {
    const extra = [
      `time=${(n["Actual Total Time"] ?? 0).toFixed(3)}`,
      `rows=${n["Actual Rows"] ?? 0}`,
      `loops=${n["Actual Loops"] ?? 1}`,
      n["Rows Removed by Filter"] ? `removed by filter=${n["Rows Removed by Filter"]}` : "",
      n["Rows Removed by Index Recheck"] ? `removed by recheck=${n["Rows Removed by Index Recheck"]}` : "",
      n["Sort Method"] ? `sort=${n["Sort Method"]}` : "",
      `buffers hit=${n["Shared Hit Blocks"] ?? 0} read=${n["Shared Read Blocks"] ?? 0}`,
    ].filter(Boolean);
    lines.push(`${"  ".repeat(depth)}-> ${describe(n)} (${extra.join(" ")})`);
  });
  return lines.join("\n");
}

interface ExplainOutput {
  Plan: PlanNode;
  "Planning Time"?: number;
  "Execution Time"?: number;
}

function parseExplain(rows: Record<string, unknown>[]): ExplainOutput {
  const raw = rows[0]?.["QUERY PLAN"];
  const value: unknown = typeof raw === "string" ? JSON.parse(raw) : raw;
  const first = Array.isArray(value) ? value[0] : value;
  if (!first || typeof first !== "object" || !("Plan" in first)) throw new Error("unexpected EXPLAIN output");
  return first as ExplainOutput;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a case's statements in a rolled-back transaction (some write).
 * `runs` > 1 keeps the fastest, the warm-cache time, as under load.
 */
export async function explainCase(
  db: RawDb,
  statements: CapturedStatement[],
  runs = 3,
): Promise<CaseExplain> {
  const plans: StatementPlan[] = [];
  const work = statements.filter((s) => !CONTROL.test(s.text));
  await db.query("begin");
  try {
    for (const [i, statement] of work.entries()) {
      // `set local work_mem …` of a report: applied as it is, so the report is explained with it.
      if (/^\s*set\b/i.test(statement.text)) {
        await db.query(statement.text, statement.params);
        continue;
      }
      let best: ExplainOutput | undefined;
      let failure: string | undefined;
      for (let run = 0; run < runs && !failure; run++) {
        await db.query("savepoint bench_explain");
        try {
          const out = parseExplain(
            await db.query(`explain (analyze, buffers, format json) ${statement.text}`, statement.params),
          );
          if (!best || (out["Execution Time"] ?? 0) < (best["Execution Time"] ?? 0)) best = out;
        } catch (error) {
          failure = error instanceof Error ? error.message : String(error);
        }
        await db.query("rollback to savepoint bench_explain");
      }
      if (!best) {
        const note = `EXPLAIN failed: ${failure ?? "no output"}`;
        plans.push({
          index: i + 1,
          group: statement.group,
          auth: isAuthStatement(statement.text),
          text: statement.text,
          planningMs: 0,
          executionMs: 0,
          top: note,
          heaviest: note,
          plan: note,
        });
        continue;
      }
      plans.push({
        index: i + 1,
        group: statement.group,
        auth: isAuthStatement(statement.text),
        text: statement.text,
        planningMs: best["Planning Time"] ?? 0,
        executionMs: best["Execution Time"] ?? 0,
        top: describe(best.Plan),
        heaviest: heaviestNode(best.Plan),
        plan: planText(best.Plan),
      });
    }
  } finally {
    await db.query("rollback");
  }
  const total = (p: StatementPlan) => p.planningMs + p.executionMs;
  const byGroup = new Map<number, number>();
  for (const p of plans) byGroup.set(p.group, Math.max(byGroup.get(p.group) ?? 0, total(p)));
  const slowest = plans.filter((p) => !p.auth).sort((a, b) => total(b) - total(a))[0];
  return {
    dbMs: [...byGroup.values()].reduce((a, b) => a + b, 0),
    authMs: plans.filter((p) => p.auth).reduce((sum, p) => sum + total(p), 0),
    top: slowest?.top ?? "",
    heaviest: slowest?.heaviest ?? "",
    statements: plans,
  };
}

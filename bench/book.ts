import { hashApiKey } from "@/lib/auth/secrets";
import type { Database } from "@/lib/db/client";
// Renamed: it is no React hook, it points the process database at the capturing one.
import { useDatabaseForTests as setProcessDatabase } from "@/lib/db/client";
import { apiRequest, call } from "@/lib/testing/factories";
import type { Book, BookRoute, MapperName } from "./baseline-server";
import type { CapturedStatement, StatementRecorder } from "./capture";
import type { BenchCase } from "./cases";
import { isAuthStatement } from "./explain";
import { routeFor } from "./routes";

const MAPPERS: Record<string, MapperName> = {
  "/api/leads": "leads-list",
  "/api/leads/stage-totals": "lead-stage-totals",
  "/api/leads/:id": "lead",
  "/api/customers": "customers-list",
  "/api/customers/:id": "customer",
  "/api/service-plans": "plans-list",
  "/api/serviced-jobs": "jobs-list",
  "/api/pins": "pins-list",
  "/api/pin-types": "pin-types",
  "/api/reports/service-plans": "report-plans",
  "/api/reports/serviced-jobs": "report-jobs",
};

/** A case run once through our route handler in-process: its answer and every statement it sent. */
export interface CaseCapture {
  caseId: string;
  pattern: string;
  status: number;
  body: unknown;
  statements: CapturedStatement[];
  /** Why the answer is wrong (status or shape); undefined when right. */
  problem?: string;
}

const CONTROL = /^\s*(begin|commit|rollback)\b/i;

/**
 * Runs each case's template request through our route handler with the capturing database as
 * the process's database, as `next start` would run it, and keeps the statements.
 */
export async function captureCases(
  database: Database,
  recorder: StatementRecorder,
  cases: readonly BenchCase[],
  key: string,
): Promise<CaseCapture[]> {
  setProcessDatabase(database);
  const captures: CaseCapture[] = [];
  try {
    for (const benchCase of cases) {
      const { method, path, body } = benchCase.request;
      const url = new URL(path, "http://localhost");
      const route = routeFor(method, url.pathname);
      try {
        const { result, statements } = await recorder.record(() =>
          call(route.handler, apiRequest(path, { key, method, body }), route.params),
        );
        const problem =
          result.status !== benchCase.expectStatus
            ? `status ${result.status} (expected ${benchCase.expectStatus}): ${JSON.stringify(result.body).slice(0, 300)}`
            : benchCase.check(result.body);
        captures.push({
          caseId: benchCase.id,
          pattern: route.pattern,
          status: result.status,
          body: result.body,
          statements,
          problem,
        });
      } catch (error) {
        captures.push({
          caseId: benchCase.id,
          pattern: route.pattern,
          status: 0,
          body: null,
          statements: [],
          problem: `threw: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
  } finally {
    setProcessDatabase(undefined);
  }
  return captures;
}

/** The statements of a case other than the key check and transaction control. */
export function dataStatements(capture: CaseCapture): CapturedStatement[] {
  return capture.statements.filter((s) => !isAuthStatement(s.text) && !CONTROL.test(s.text));
}

/** What the baseline needs: the key check and, per GET case, the statements to replay. */
export function buildBook(
  companyId: string,
  key: string,
  cases: readonly BenchCase[],
  captures: readonly CaseCapture[],
): Book {
  const keyHash = hashApiKey(key);
  const auth = captures.flatMap((c) => c.statements).find((s) => isAuthStatement(s.text));
  if (!auth) throw new Error("bench: no API key check was captured");
  const routes: BookRoute[] = [];
  for (const capture of captures) {
    const benchCase = cases.find((c) => c.id === capture.caseId);
    // The baseline serves the read cases it is compared on, not those measured on ours only.
    if (!benchCase || benchCase.request.method !== "GET" || benchCase.oursOnly || capture.problem) continue;
    const url = new URL(benchCase.request.path, "http://localhost");
    const mapper = MAPPERS[capture.pattern];
    if (!mapper) continue;
    // Transaction control stays: the baseline replays a transaction as one.
    const statements = capture.statements.filter((s) => !isAuthStatement(s.text));
    // Groups renumbered from 1 once the key check (group 1) is left out.
    const first = statements[0]?.group ?? 1;
    routes.push({
      caseId: capture.caseId,
      pattern: capture.pattern,
      search: capture.pattern.includes(":id") ? "" : url.search,
      templateId: capture.pattern.includes(":id")
        ? decodeURIComponent(url.pathname.split("/").pop() ?? "")
        : undefined,
      mapper,
      statements: statements.map((s) => ({ ...s, group: s.group - first + 1 })),
    });
  }
  return { companyId, auth: { text: auth.text, params: auth.params, name: auth.name, keyHash }, routes };
}

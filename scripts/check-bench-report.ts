import fs from "node:fs";
import path from "node:path";
import { benchReportProblems } from "@/bench/report";

// Run by verify: the report's size limits (bench/report.ts) hold on every commit, not only after a bench run.
const bench = path.join(process.cwd(), "bench");
const problems = benchReportProblems(
  fs.readFileSync(path.join(bench, "RESULTS.md"), "utf8"),
  fs.readdirSync(path.join(bench, "results")),
);
for (const problem of problems) console.error(problem);
process.exitCode = problems.length > 0 ? 1 : 0;

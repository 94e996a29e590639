import fs from "node:fs";
import path from "node:path";
import { benchReportProblems } from "@/bench/report";

/** Part of `npm run verify`: bench/RESULTS.md and bench/results stay within their bounds. */
const bench = path.join(process.cwd(), "bench");
const problems = benchReportProblems(
  fs.readFileSync(path.join(bench, "RESULTS.md"), "utf8"),
  fs.readdirSync(path.join(bench, "results")),
);
for (const problem of problems) console.error(problem);
process.exitCode = problems.length > 0 ? 1 : 0;

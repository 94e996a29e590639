import "server-only";
import type { z } from "zod";

export type ProblemPath = readonly (string | number)[];

/** One reason a file is refused, at the place it was found. */
export interface ImportProblem {
  path: ProblemPath;
  message: string;
}

/** `jobs[3].visits[0].start`: brackets for positions, dots for fields. */
export function formatPath(path: ProblemPath): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out || "(file)";
}

export function formatProblem(problem: ImportProblem): string {
  return `${formatPath(problem.path)}: ${problem.message}`;
}

/** The file is refused: nothing was written. */
export class ImportRefusedError extends Error {
  override name = "ImportRefusedError";
  constructor(readonly problems: ImportProblem[]) {
    super(
      `The file was refused (${problems.length} problem${problems.length === 1 ? "" : "s"}); nothing was written.`,
    );
  }
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return Number.isFinite(value) ? "a number" : "not a finite number";
  if (typeof value === "boolean") return "a boolean";
  return typeof value;
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  tuple: "an array",
};

/**
 * Short messages in the words of the file rather than of zod: `required`, `expected a string,
 * got a number`, `must be one of low, medium, high`.
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value"))
    return "required";
  switch (issue.code) {
    case "invalid_type":
      if (issue.expected === "number" && typeof issue.input === "number") return "must be a finite number";
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(issue.input)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "too_small":
      if (issue.origin === "string")
        return Number(issue.minimum) <= 1
          ? "must not be empty"
          : `must be at least ${issue.minimum} characters`;
      if (issue.origin === "array") return `must have at least ${issue.minimum} items`;
      return `must be at least ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      if (issue.origin === "array") return `must have at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum}`;
    default:
      return undefined;
  }
}

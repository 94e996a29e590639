import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { getOpenApiDocument } from "@/app/api/routes";

/** One line per problem (rule, where, what), readable in a failing assertion. */
const summary = (problems: NormalizedProblem[]) =>
  problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer ?? "?"}: ${p.message}`);

describe("OpenAPI document under redocly lint (recommended rules)", () => {
  it("has no errors and no warnings", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(getOpenApiDocument()), config });
    expect(summary(problems.filter((p) => p.severity === "error"))).toEqual([]);
    expect(summary(problems.filter((p) => p.severity === "warn"))).toEqual([]);
  });
});

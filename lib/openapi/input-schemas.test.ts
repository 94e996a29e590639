import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getOpenApiDocument } from "@/app/api/routes";
import { getLeadsQuerySchema } from "@/lib/schemas/leads";
import { getPinsQuerySchema } from "@/lib/schemas/pins";
import { getServicedJobsQuerySchema } from "@/lib/schemas/serviced-jobs";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import { addNoteBodySchema } from "@/lib/schemas/activity";
import { getServicedJobReportQuerySchema, getServicePlanReportQuerySchema } from "@/lib/schemas/reports";
import type { JsonObject } from "./json-schema";

/*
 * The document's input schemas against the server's own parsing: every value a schema admits is
 * accepted (so a client that validates against the document is never refused with a 400 for it),
 * and the values the server refuses are outside the schema. Values come from the document's
 * patterns, with a fixed seed.
 */

const FC = { seed: 54, numRuns: 300 } as const;

type Operation = { parameters: (JsonObject & { name?: string; schema?: JsonObject })[] };
const doc = getOpenApiDocument() as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, JsonObject> }> };
};
const queryParameter = (path: string, name: string): JsonObject =>
  doc.paths[path]!.get!.parameters.find((p) => p.name === name)!.schema!;
const bodyProperty = (schema: string, name: string): JsonObject => {
  const property = doc.components.schemas[schema]!.properties[name]!;
  const options = property.anyOf as JsonObject[] | undefined;
  return options?.find((o) => o.type === "string") ?? property;
};

/** Whether a value satisfies a string schema's pattern, lengths, alternatives and `not` (JSON Schema rules). */
function admits(schema: JsonObject, value: string): boolean {
  const length = Array.from(value).length;
  if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value)) return false;
  if (typeof schema.maxLength === "number" && length > schema.maxLength) return false;
  if (typeof schema.minLength === "number" && length < schema.minLength) return false;
  const anyOf = schema.anyOf as JsonObject[] | undefined;
  if (anyOf && !anyOf.some((option) => admits(option, value))) return false;
  const not = schema.not as JsonObject | undefined;
  if (not && admits(not, value)) return false;
  return true;
}

/** Strings a schema's own pattern (or one of its alternatives') generates, kept to those it admits. */
function admitted(schema: JsonObject): fc.Arbitrary<string> {
  const patterns = [schema, ...((schema.anyOf as JsonObject[] | undefined) ?? [])]
    .map((s) => s.pattern)
    .filter((p): p is string => typeof p === "string");
  expect(patterns.length).toBeGreaterThan(0);
  return fc
    .oneof(...patterns.map((p) => fc.stringMatching(new RegExp(p))))
    .filter((value) => admits(schema, value));
}

const issues = (result: { success: boolean; error?: { issues: unknown[] } }) =>
  result.success ? [] : result.error!.issues;

describe("input schemas of the document admit only what the server accepts", () => {
  it("dates: a date or a date-time, as every date filter and date field reads them", () => {
    const schema = queryParameter("/leads", "follow_up_to");
    expect(schema.anyOf).toMatchObject([{ format: "date" }, { format: "date-time" }]);
    expect(bodyProperty("UpsertLeadBody", "follow_up_date")).toMatchObject({ anyOf: schema.anyOf });
    fc.assert(
      fc.property(admitted(schema), (value) => {
        const query = getLeadsQuerySchema.safeParse({ follow_up_from: value, follow_up_to: value });
        const body = upsertLeadBodySchema.safeParse({ follow_up_date: value });
        expect(issues(query), value).toEqual([]);
        expect(issues(body), value).toEqual([]);
      }),
      FC,
    );
    for (const refused of [
      "2026-02-30",
      "2025-02-29",
      "0000-01-01",
      "2026-03-31T24:00:00Z",
      "2026-03-31T10:00:00",
      "2026-03-31T10:00:60Z",
      "2026-03-31T10:00:00.1234567890Z",
      "0001-01-01T00:00:00+00:01",
      "9999-12-31T23:59:59-14:00",
      "31/03/2026",
    ]) {
      expect(admits(schema, refused), refused).toBe(false);
    }
    for (const accepted of ["2026-03-31", "2024-02-29", "2026-03-31T10:00Z", "2026-03-31T10:00:00.5+02:00"]) {
      expect(admits(schema, accepted), accepted).toBe(true);
    }
  });

  it("email: format email and the server's pattern", () => {
    const schema = bodyProperty("UpsertLeadBody", "email");
    expect(schema).toMatchObject({ format: "email", maxLength: 255 });
    fc.assert(
      fc.property(admitted(schema), (email) => {
        expect(issues(upsertLeadBodySchema.safeParse({ email })), email).toEqual([]);
      }),
      FC,
    );
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        // Addresses of a dotted domain, as the document admits them, are accepted.
        if (admits(schema, email))
          expect(issues(upsertLeadBodySchema.safeParse({ email })), email).toEqual([]);
      }),
      FC,
    );
    for (const refused of ["a@b", "no at sign", "a b@c.de"])
      expect(admits(schema, refused), refused).toBe(false);
  });

  it("sort: known fields, each once, with - for descending", () => {
    for (const [path, schema] of [
      ["/leads", getLeadsQuerySchema.shape.sort],
      ["/serviced-jobs", getServicedJobsQuerySchema.shape.sort],
    ] as const) {
      const documented = queryParameter(path, "sort");
      fc.assert(
        fc.property(admitted(documented), (sort) => {
          expect(issues(schema.safeParse(sort)), `${path} ${sort}`).toEqual([]);
        }),
        FC,
      );
      for (const refused of [
        "",
        "unknown",
        "name,-name",
        "created_at,,status",
        "created_at, status , created_at",
      ]) {
        expect(admits(documented, refused), `${path} ${refused}`).toBe(false);
        expect(schema.safeParse(refused).success, `${path} ${refused}`).toBe(false);
      }
    }
  });

  it("bbox: four numbers in range; south after north is the one rule the pattern leaves to the description", () => {
    const documented = queryParameter("/pins", "bbox");
    expect(documented.pattern).toEqual(expect.any(String));
    fc.assert(
      fc.property(admitted(documented), (bbox) => {
        const [south, , north] = bbox.split(",").map(Number) as [number, number, number, number];
        const result = getPinsQuerySchema.safeParse({ bbox });
        if (south <= north) expect(issues(result), bbox).toEqual([]);
        else expect(result.error?.issues[0]?.message, bbox).toBe("south must not be greater than north");
      }),
      FC,
    );
    const description = doc.paths["/pins"]!.get!.parameters.find((p) => p.name === "bbox")!.description;
    expect(description).toContain("south ≤ north");
    for (const refused of ["1,2,3", "91,0,92,0", "0,181,1,0", "a,b,c,d", "1e1,0,20,0"]) {
      expect(admits(documented, refused), refused).toBe(false);
    }
  });

  it("states in words the reports' backwards range, the rule a schema cannot express", () => {
    for (const [path, schema, start, end] of [
      [
        "/reports/service-plans",
        getServicePlanReportQuerySchema,
        "created_at_range_start",
        "created_at_range_end",
      ],
      [
        "/reports/serviced-jobs",
        getServicedJobReportQuerySchema,
        "service_date_range_start",
        "service_date_range_end",
      ],
    ] as const) {
      const refused = schema.safeParse({ [start]: "2026-03-02", [end]: "2026-03-01" });
      expect(refused.error?.issues, path).toMatchObject([
        { path: [end], message: `must not be before ${start}` },
      ]);
      const description = doc.paths[path]!.get!.parameters.find((p) => p.name === end)!.description;
      expect(description, path).toContain(`Before \`${start}\`: 400`);
    }
    // The lists answer an empty page instead, and say nothing of a 400.
    const list = doc.paths["/service-plans"]!.get!.parameters.find((p) => p.name === "created_at_range_end");
    expect(list!.description).not.toContain("400");
  });

  it("gives query parameter examples its own schema admits", () => {
    const checked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const parameter of op.parameters) {
          const schema = parameter.schema;
          if (!schema || schema.type !== "string") continue;
          for (const example of (schema.examples as string[] | undefined) ?? []) {
            checked.push(example);
            expect(admits(schema, example), `${method} ${path} ${parameter.name}: ${example}`).toBe(true);
          }
        }
      }
    }
    expect(checked.length).toBeGreaterThan(5);
  });

  it("texts that must not be blank say so with a pattern; the note states its limits", () => {
    const assignedTo = queryParameter("/leads", "assigned_to");
    expect(assignedTo).toMatchObject({ pattern: "\\S", maxLength: 255 });
    expect(admits(assignedTo, "   ")).toBe(false);
    expect(getLeadsQuerySchema.safeParse({ assigned_to: "   " }).success).toBe(false);
    const note = doc.components.schemas.AddNoteBody!.properties.body!;
    expect(note).toMatchObject({ type: "string", pattern: "\\S", maxLength: 10_000 });
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 50 }), (body) => {
        expect(addNoteBodySchema.safeParse({ body }).success, JSON.stringify(body)).toBe(admits(note, body));
      }),
      FC,
    );
  });
});

import { describe, expect, it } from "vitest";
import { getOpenApiDocument } from "@/app/api/routes";
import { constraints, buildReference } from "./reference";

describe("API reference view of the document", () => {
  const reference = buildReference(getOpenApiDocument());
  const find = (method: string, path: string) =>
    reference.groups.flatMap((g) => g.endpoints).find((e) => e.method === method && e.path === path)!;

  it("shows every documented operation once, grouped by tag, with the guide", () => {
    const doc = getOpenApiDocument() as { paths: Record<string, object> };
    const count = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(reference.groups.flatMap((g) => g.endpoints)).toHaveLength(count);
    expect(reference.guide.map((s) => s.id)).toEqual(
      expect.arrayContaining([
        "introduction",
        "authentication",
        "rate-limits",
        "pagination",
        "errors",
        "versioning",
      ]),
    );
    const errors = reference.guide.find((s) => s.id === "errors")!;
    const table = errors.blocks.find((b) => b.kind === "table");
    expect(JSON.stringify(table)).toContain("RATE_LIMIT_EXCEEDED");
  });

  it("flattens request and response fields with their types, limits and nesting", () => {
    const upsert = find("POST", "/customers");
    const email = upsert.body!.fields.find((f) => f.name === "email");
    expect(email).toMatchObject({
      type: "string | null",
      required: false,
      constraints: ["max 255 characters", "email", "pattern ^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$"],
    });
    const getCustomer = find("GET", "/customers/{id}");
    const names = getCustomer.responses[0]!.fields.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "status",
        "data",
        "data.address",
        "data.address.city",
        "data.has_payment_method",
      ]),
    );
    const list = find("GET", "/leads");
    expect(list.responses[0]!.fields.map((f) => f.name)).toEqual(
      expect.arrayContaining(["data", "data[].id", "data[].tags", "pagination.total"]),
    );
    expect(list.parameters.find((p) => p.name === "limit")).toMatchObject({
      in: "query",
      type: "integer",
      constraints: ["1 to 1,000", "default 50"],
    });
  });

  it("carries scopes, errors with example messages and the curl example", () => {
    const getCustomer = find("GET", "/customers/{id}");
    expect(getCustomer.scopes).toEqual(["customers:read", "leads:read"]);
    expect(getCustomer.scopeNamed).toBe("leads:read");
    const notFound = getCustomer.errors.find((e) => e.status === "404");
    expect(notFound).toMatchObject({ code: null, example: "Customer not found" });
    const scope = getCustomer.errors.find((e) => e.code === "INSUFFICIENT_SCOPE");
    expect(scope?.example).toContain("leads:read");
    expect(getCustomer.curl).toContain("/api/customers/");
  });

  it("lists the columns of a CSV export", () => {
    const exportPlans = find("GET", "/reports/service-plans/export");
    expect(exportPlans.responses[0]).toMatchObject({ status: "200", contentType: "text/csv" });
    expect(exportPlans.responses[0]!.fields.map((f) => f.name)).toEqual(
      expect.arrayContaining(["id", "sale_value", "total_received"]),
    );
    expect(exportPlans.curl).toContain("-o ");
  });

  it("words constraints of nullable and array schemas", () => {
    expect(constraints({ anyOf: [{ type: "string", maxLength: 10000 }, { type: "null" }] })).toEqual([
      "max 10,000 characters",
    ]);
    expect(constraints({ type: "array", maxItems: 100, items: { type: "string", maxLength: 100 } })).toEqual([
      "max 100 items of max 100 characters",
    ]);
  });

  it("words dates, not-blank texts and long patterns of the inputs", () => {
    const listLeads = find("GET", "/leads");
    const param = (name: string) => listLeads.parameters.find((p) => p.name === name);
    expect(param("follow_up_to")).toMatchObject({ type: "string", constraints: ["date or date-time"] });
    expect(param("assigned_to")?.constraints).toEqual(["max 255 characters", "not blank"]);
    // The sort pattern is long: the description lists the fields instead.
    expect(param("sort")).toMatchObject({ type: "string", constraints: [] });
    expect(param("sort")?.description).toContain("follow_up_date");
  });
});

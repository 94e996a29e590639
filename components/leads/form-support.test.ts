import { describe, expect, it } from "vitest";
import { ApiClientError } from "@/lib/query/api-client";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import {
  dateInputToIso,
  isoToDateInput,
  serverFieldErrors,
  unplacedErrors,
  zodFieldErrors,
} from "./form-support";

describe("form errors", () => {
  it("puts the API schema's issues on their fields, one message each, list items on the list", () => {
    const parsed = upsertLeadBodySchema.safeParse({
      email: "nope",
      priority: "urgent",
      tags: ["ok", ""],
      projected_value: -1,
    });
    expect(parsed.success).toBe(false);
    const errors = zodFieldErrors(parsed.error!);
    expect(Object.keys(errors).sort()).toEqual(["email", "priority", "projected_value", "tags"]);
    expect(errors.email).toBe("must be a valid email address");
    expect(errors.tags).toBe("must not be empty");
  });

  it("turns the API's 400 details into field messages and keeps its overall message", () => {
    const error = new ApiClientError(400, "Invalid request", "VALIDATION_ERROR", [
      { field: "email", message: "must be a valid email address" },
      { field: "tags.2", message: "must be at most 100 characters" },
      { field: "email", message: "second message is dropped" },
    ]);
    expect(serverFieldErrors(error)).toEqual({
      email: "must be a valid email address",
      tags: "must be at most 100 characters",
      "": "Invalid request",
    });
    expect(serverFieldErrors(new Error("boom"))).toEqual({ "": "Something went wrong. Please try again." });
  });

  it("lists the errors of fields the form does not show", () => {
    expect(unplacedErrors({ "": "x", email: "bad", id: "unknown" }, ["email", "name"])).toEqual([
      "id: unknown",
    ]);
  });
});

describe("date inputs", () => {
  it("round-trips a picked day through the ISO value sent to the API", () => {
    const iso = dateInputToIso("2026-03-31");
    expect(upsertLeadBodySchema.safeParse({ follow_up_date: iso }).success).toBe(true);
    expect(isoToDateInput(iso)).toBe("2026-03-31");
  });

  it("leaves other text alone and shows nothing for a missing or bad date", () => {
    expect(dateInputToIso("")).toBe("");
    expect(dateInputToIso("31/03/2026")).toBe("31/03/2026");
    expect(isoToDateInput(null)).toBe("");
    expect(isoToDateInput("not a date")).toBe("");
  });
});

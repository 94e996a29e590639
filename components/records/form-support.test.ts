import { describe, expect, it } from "vitest";
import { ApiClientError } from "@/lib/query/api-client";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import {
  checkedBody,
  dateInputToIso,
  fieldsToSend,
  isFormDirty,
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

describe("what a create-or-update sends", () => {
  const fields = ["name", "email", "phone"] as const;
  const initial = { name: "Pat", email: "pat@example.test", phone: "" };

  it("sends the filled fields of a new record and the changed fields of an edit", () => {
    const values = { name: "Pat", email: "  ", phone: "512 555 0100" };
    expect(fieldsToSend(fields, values, initial, false)).toEqual(["name", "phone"]);
    // An emptied field is a change (sent as "", stored as null); an untouched one is not sent.
    expect(fieldsToSend(fields, { ...initial, email: "" }, initial, true)).toEqual(["email"]);
    expect(fieldsToSend(fields, initial, initial, true)).toEqual([]);
  });

  it("adds the typed tags and passes a body the API's schema accepts", () => {
    const built = checkedBody(upsertLeadBodySchema, { name: "Pat" }, " spring,  vip ", {});
    expect(built).toEqual({ body: { name: "Pat", tags: ["spring", "vip"] } });
    expect(checkedBody(upsertLeadBodySchema, { name: "Pat" }, " , ", {})).toEqual({ body: { name: "Pat" } });
  });

  it("stops a body the schema refuses; the form's own errors come first, the schema's message wins", () => {
    const built = checkedBody(upsertLeadBodySchema, { email: "nope", projected_value: -1 }, "", {
      name: "Give at least a name",
      projected_value: "must be a number",
    });
    expect("errors" in built && Object.keys(built.errors)).toEqual(["name", "projected_value", "email"]);
    expect("errors" in built && built.errors.name).toBe("Give at least a name");
    expect("errors" in built && built.errors.projected_value).not.toBe("must be a number");
    expect("errors" in built && built.errors.email).toBe("must be a valid email address");
  });

  it("stops a phone without a digit, which the API would take in any format", () => {
    const built = checkedBody(upsertLeadBodySchema, { name: "Pat", phone: "abc" }, "", {});
    expect(built).toEqual({ errors: { phone: "A phone number needs digits" } });
    expect(checkedBody(upsertLeadBodySchema, { phone: "(512) 555-0199 ext. 2" }, "", {})).toEqual({
      body: { phone: "(512) 555-0199 ext. 2" },
    });
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

describe("isFormDirty", () => {
  const fields = ["name", "notes"] as const;
  const initial = { name: "Robin", notes: "" };

  it("is clean as opened, and again when a changed value is typed back", () => {
    expect(isFormDirty(fields, initial, initial, "")).toBe(false);
    expect(isFormDirty(fields, { ...initial }, initial, "")).toBe(false);
  });

  it("is dirty when a value differs, even by a space or an emptied field", () => {
    expect(isFormDirty(fields, { ...initial, notes: " " }, initial, "")).toBe(true);
    expect(isFormDirty(fields, { ...initial, name: "" }, initial, "")).toBe(true);
  });

  it("counts typed tags, not blank tag input", () => {
    expect(isFormDirty(fields, initial, initial, " , ")).toBe(false);
    expect(isFormDirty(fields, initial, initial, "vip")).toBe(true);
  });

  it("looks only at the fields it is given", () => {
    const onlyName: ("name" | "notes")[] = ["name"];
    expect(isFormDirty(onlyName, { ...initial, notes: "typed" }, initial, "")).toBe(false);
  });
});

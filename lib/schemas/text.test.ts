import { describe, expect, it } from "vitest";
import { z } from "zod";
import { charLength } from "@/lib/values/text";
import { maxChars, minChars, nonBlank } from "./text";

describe("text limits in characters", () => {
  it("counts code points, as JSON Schema's maxLength does: an emoji is one", () => {
    expect(charLength("😀")).toBe(1);
    expect("😀".length).toBe(2);
    expect(charLength("a😀b")).toBe(3);
    // A letter and a combining accent are two code points, for JSON Schema too.
    expect(charLength("e\u0301")).toBe(2);
  });

  it("checks and documents the same limit", () => {
    const schema = minChars(maxChars(z.string(), 3), 2, "too short");
    expect(schema.safeParse("😀😀😀").success).toBe(true);
    expect(schema.safeParse("😀😀😀😀").error?.issues[0]?.message).toBe("must be at most 3 characters");
    expect(schema.safeParse("😀").error?.issues[0]?.message).toBe("too short");
    expect(z.toJSONSchema(schema)).toMatchObject({ type: "string", minLength: 2, maxLength: 3 });
  });

  it("refuses a blank text after trimming and documents the pattern", () => {
    const schema = nonBlank(z.string().trim(), "must be named");
    expect(schema.safeParse(" \t ").error?.issues[0]?.message).toBe("must be named");
    expect(schema.parse(" x ")).toBe("x");
    expect(z.toJSONSchema(schema)).toMatchObject({ type: "string", pattern: "\\S" });
  });
});

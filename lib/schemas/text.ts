import type { z } from "zod";
import { charLength } from "@/lib/values/text";

/*
 * Text limits as the API states them. JSON Schema's minLength and maxLength count characters (code
 * points), and so do PostgreSQL's varchar limits, while zod's .min() and .max() count UTF-16 units:
 * an emoji would count twice and a text within the documented limit be refused. These checks count
 * characters and keep minLength / maxLength in the generated document.
 */

/** At most `max` characters (code points); the document states maxLength. */
export function maxChars<S extends z.ZodString>(
  schema: S,
  max: number,
  message = `must be at most ${max} characters`,
): S {
  return schema.refine((value) => charLength(value) <= max, message).meta({ maxLength: max });
}

/** At least `min` characters (code points); the document states minLength. */
export function minChars<S extends z.ZodString>(schema: S, min: number, message: string): S {
  return schema.refine((value) => charLength(value) >= min, message).meta({ minLength: min });
}

/**
 * Not empty once trimmed: a character other than white space (the document's pattern `\S`; a bare
 * minLength would let a value of spaces through the document that the server refuses).
 */
export function nonBlank<S extends z.ZodString>(schema: S, message = "must not be empty"): S {
  return schema.regex(/\S/, message);
}

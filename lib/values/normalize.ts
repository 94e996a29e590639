/**
 * The matching rules of create-or-update (contract section 6) and search (section 5), pure so forms and
 * schemas share them; the SQL tag merge is lib/domain/normalize.ts.
 */

/** Digits of a phone number; a leading US `1` of an 11-digit number is dropped. Null if none. */
export function normalizePhone(phone: string | null | undefined): string | null {
  if (phone == null) return null;
  const digits = phone.replace(/\D/g, "");
  if (!digits) return null;
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
}

/** Trimmed, lower-cased email; null if empty. */
export function normalizeEmail(email: string | null | undefined): string | null {
  if (email == null) return null;
  const trimmed = email.trim().toLowerCase();
  return trimmed || null;
}

/**
 * For a term of phone characters only, the digits to look for in normalized phones (`555-1234` finds
 * `(555) 123-4…`), a leading US 1 dropped as stored numbers do; otherwise null.
 */
export function phoneSearchDigits(term: string): string | null {
  return /^[\d\s+().-]+$/.test(term) ? normalizePhone(term) : null;
}

/** Escapes LIKE wildcards so a search term is matched literally. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A body's tags without repeats, in their order (what mergedTags appends). */
export function uniqueTags(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

/** `tags` query parameter: comma-separated, trimmed, empty entries ignored. */
export function parseTagList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** A record's value for one sort field, as the list compares it; null sorts last either way. */
export type SortValue = string | number | Date | null;

function compareValues(a: SortValue, b: SortValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const [x, y] = [a instanceof Date ? a.getTime() : a, b instanceof Date ? b.getTime() : b];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Row ids in a list's `sort` order (extensions.md E2): empty values last either way, then id descending.
 * Strings compare by code unit, as the test databases' C collation does for ASCII.
 */
export function bySortKeys<R extends { id?: string }, F extends string>(
  rows: readonly R[],
  sort: string,
  keysOf: (row: R, field: F) => SortValue | SortValue[],
): string[] {
  const items = sort.split(",").map((item) => {
    const trimmed = item.trim();
    return { field: trimmed.replace(/^-/, "") as F, descending: trimmed.startsWith("-") };
  });
  const compare = (a: R, b: R) => {
    for (const { field, descending } of items) {
      const [xs, ys] = [[keysOf(a, field)].flat(), [keysOf(b, field)].flat()];
      for (let i = 0; i < xs.length; i++) {
        const [x = null, y = null] = [xs[i], ys[i]];
        const order = compareValues(x, y);
        if (order !== 0) return x === null || y === null ? order : descending ? -order : order;
      }
    }
    return compareValues(b.id ?? null, a.id ?? null);
  };
  return [...rows].sort(compare).map((row) => row.id as string);
}

/**
 * An error and its causes, outermost first: Drizzle wraps the driver's error in `cause`, and the
 * driver's code or message decides how it is answered. A cycle of causes ends the walk.
 */
export function errorChain(error: unknown): { code?: unknown; message?: unknown; cause?: unknown }[] {
  const chain: { code?: unknown; message?: unknown; cause?: unknown }[] = [];
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === "object" && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    chain.push(e as { code?: unknown; message?: unknown; cause?: unknown });
  }
  return chain;
}

import "server-only";
import { readJsonObjectBody } from "./body";
import { ApiError } from "./errors";
import type { BaseConfig, Out, RouteContext, Schema } from "./route-config";
import { parseOrThrow, searchParamsToObject, validationError } from "./validation";

/** Longest query string accepted (characters, encoded). */
export const MAX_QUERY_LENGTH = 4096;

/** A request that sends no body: no Content-Type and no (or an empty) content. */
const isBodyless = (request: Request) =>
  !request.headers.get("content-type") &&
  (request.body === null || request.headers.get("content-length") === "0");

/** Checks 6–7: body, then query, path and body values against their schemas (all problems at once). */
export async function parseInput<Q extends Schema, B extends Schema, P extends Schema>(
  config: BaseConfig<Q, B, P>,
  request: Request,
  url: URL,
  context: RouteContext,
): Promise<{ query: Out<Q>; body: Out<B>; params: Out<P> }> {
  const rawBody = config.body
    ? config.bodyOptional && isBodyless(request)
      ? {}
      : await readJsonObjectBody(request)
    : undefined;
  if (url.search.length > MAX_QUERY_LENGTH) {
    throw validationError([
      { field: "query", message: `The query string must not be longer than ${MAX_QUERY_LENGTH} characters` },
    ]);
  }
  const problems: { field: string; message: string }[] = [];
  const run = <S extends Schema>(schema: S, value: unknown, prefix: string): Out<S> => {
    if (!schema) return undefined as Out<S>;
    try {
      return parseOrThrow(schema, value) as Out<S>;
    } catch (error) {
      if (error instanceof ApiError && error.details) {
        problems.push(
          ...error.details.map((d) => ({ ...d, field: prefix ? `${prefix}${d.field}` : d.field })),
        );
        return undefined as Out<S>;
      }
      throw error;
    }
  };
  const params = run(config.params, config.params ? await context.params : undefined, "");
  const query = run(config.query, searchParamsToObject(url.searchParams), "");
  const body = run(config.body, rawBody, "");
  // PostgreSQL text cannot hold U+0000: refuse it here rather than fail in the database (500).
  if (problems.length === 0) {
    for (const parsed of [params, query, body]) problems.push(...nulCharacterProblems(parsed));
  }
  if (problems.length > 0) throw validationError(problems);
  return { query: query as Out<Q>, body: body as Out<B>, params: params as Out<P> };
}

/** Fields (by path) of parsed input whose strings contain U+0000, which PostgreSQL text cannot store. */
function nulCharacterProblems(input: unknown): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const pending: [string, unknown][] = input && typeof input === "object" ? Object.entries(input) : [];
  while (pending.length > 0) {
    const [path, value] = pending.pop()!;
    if (typeof value === "string") {
      if (value.includes("\u0000"))
        problems.push({ field: path, message: "must not contain the NUL character (U+0000)" });
    } else if (value !== null && typeof value === "object" && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) pending.push([`${path}.${key}`, item]);
    }
  }
  return problems.reverse();
}

/*
 * The typed-client section of /docs. CLIENT_SOURCE is fieldcrm-client.ts word for word, and the
 * usage makes the calls that lib/openapi/typed-client.test.ts makes against the handlers: the test
 * keeps both true.
 */

export const TYPED_CLIENT_SECTION = { id: "typed-client", title: "Typed client (TypeScript)" } as const;

/** Installing the two libraries and generating the types from this server's document. */
export const INSTALL_COMMANDS = [
  "npm install openapi-fetch",
  "npm install --save-dev openapi-typescript",
  "npx openapi-typescript http://localhost:3000/api/openapi.json -o fieldcrm-api.ts",
].join("\n");

/** fieldcrm-client.ts: the client set up once. */
export const CLIENT_SOURCE = `import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./fieldcrm-api";

const VERSION_HEADER = "service-api-version";

/** Every operation's parameters without the version header: the middleware sends it. */
type VersionSent<Paths> = {
  [P in keyof Paths]: { [M in keyof Paths[P]]: WithoutVersionHeader<Paths[P][M]> };
};
type WithoutVersionHeader<Operation> = Operation extends { parameters: infer Params }
  ? Params extends { header: infer Header }
    ? Omit<Operation, "parameters"> & {
        parameters: Omit<Params, "header"> & { header?: Omit<Header, typeof VERSION_HEADER> };
      }
    : Operation
  : Operation;

/**
 * A typed client of the FieldCRM API, set up once: every request carries the interface version
 * and the key, so no call repeats them.
 */
export function createFieldCrmClient(options: {
  baseUrl: string;
  apiKey: string;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
}) {
  const credentials: Middleware = {
    onRequest({ request }) {
      request.headers.set(VERSION_HEADER, "1.1.0");
      request.headers.set("x-api-key", options.apiKey);
      return request;
    },
  };
  const client = createClient<VersionSent<paths>>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use(credentials);
  return client;
}
`;

/** Calls through it: typed paths, parameters, bodies and answers, no headers repeated. */
export const USAGE_SOURCE = `import { createFieldCrmClient } from "./fieldcrm-client";

const api = createFieldCrmClient({
  baseUrl: "http://localhost:3000/api",
  apiKey: process.env.FIELDCRM_API_KEY!,
});

const created = await api.POST("/leads", {
  body: { name: "Ada Lovelace", phone: "(512) 555-0142", tags: ["spring-promo"] },
});
if (created.error) throw new Error(created.error.message);
// A dry run's answer (?dry_run=true) says dry_run: true; this is the lead as stored.
if (!created.data.dry_run) console.log(created.data.id, created.data.matched_on);

const { data: page } = await api.GET("/leads", { params: { query: { search: "Ada", limit: 10 } } });
console.log(page?.pagination.total, page?.data.map((lead) => lead.name));
`;

import createClient, { type Middleware } from "openapi-fetch";
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

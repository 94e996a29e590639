import path from "node:path";
import { pathToFileURL } from "node:url";
import type { NextConfig } from "next";

/**
 * The headers next.config.mjs sets on every response, read from the config so there is one list:
 * Next adds them only to its own answers, and lib/api/before-routing.ts needs them too.
 */
export async function loadSecurityHeaders(dir: string): Promise<Record<string, string>> {
  const url = pathToFileURL(path.join(dir, "next.config.mjs")).href;
  const config = ((await import(url)) as { default: NextConfig }).default;
  const routes = (await config.headers?.()) ?? [];
  return Object.fromEntries(
    routes
      .filter((route) => route.source === "/:path*" && !route.has && !route.missing)
      .flatMap((route) => route.headers.map((h) => [h.key, h.value] as const)),
  );
}

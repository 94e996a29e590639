import { createSerwistRoute } from "@serwist/turbopack";

// Serwist's Turbopack integration: app/sw.ts is bundled (esbuild) at build time and served as
// /serwist/sw.js. Nothing is precached at install: the worker caches what the map page loads
// (runtime caching), so installing it costs no extra download on a phone.
export const { dynamic, dynamicParams, revalidate, generateStaticParams, GET } = createSerwistRoute({
  swSrc: "app/sw.ts",
  useNativeEsbuild: true,
  globPatterns: [],
});

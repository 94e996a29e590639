/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Parallel builds (benchmark, end-to-end runs) can each use their own output folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // The database drivers are Node packages with WASM/native parts; keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  typedRoutes: false,
};

export default nextConfig;

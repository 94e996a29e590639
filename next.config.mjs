/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The database drivers are Node packages with WASM/native parts; keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  typedRoutes: false,
};

export default nextConfig;

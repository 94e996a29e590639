/**
 * Security headers for every page and API response (issue: hardening). The Content-Security-Policy
 * allows map tiles only from the configured tile host (NEXT_PUBLIC_TILE_URL, default OpenStreetMap).
 */
function tileSource() {
  const url = process.env.NEXT_PUBLIC_TILE_URL || "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png";
  try {
    const parsed = new URL(url.replace("{s}.", "subdomain-placeholder.").replace(/\{[a-z]\}/g, "0"));
    const host = parsed.host.replace("subdomain-placeholder.", "*.");
    return `${parsed.protocol}//${host}`;
  } catch {
    return "";
  }
}

const isDev = process.env.NODE_ENV !== "production";

const contentSecurityPolicy = [
  "default-src 'self'",
  // Next.js inlines its bootstrap scripts; development also evaluates code for fast refresh.
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  // Leaflet and charts position elements with inline styles.
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: ${tileSource()}`.trim(),
  "font-src 'self' data:",
  // The service worker (app/sw.ts) fetches the map tiles it caches: its fetches obey connect-src.
  `connect-src 'self' ${tileSource()}${isDev ? " ws: wss:" : ""}`.trim(),
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(self), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Parallel builds (benchmark, end-to-end runs) can each use their own output folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The database drivers are Node packages with WASM/native parts; keep them out of the bundle.
  // Serwist (app/serwist/[path]/route.ts) bundles the service worker with esbuild at build time:
  // a server package too. This is what Serwist's withSerwist() adds, without loading Serwist here.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "esbuild", "esbuild-wasm"],
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;

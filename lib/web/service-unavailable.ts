import { escapeHtml } from "@/lib/format";

/** Seconds a client is asked to wait before trying again (the 503's Retry-After). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The dashboard's 503 page while the database is unreachable, linking back to `retryPath`. Plain
 * HTML with its own styles, since nothing that needs the database or the app may render it.
 */
export function serviceUnavailablePage(retryPath: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Service unavailable · FieldCRM</title>
<link rel="icon" href="/icon.svg">
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f8fafc;color:#0f172a;font-family:ui-sans-serif,system-ui,sans-serif}
main{max-width:28rem;margin:1rem;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;box-shadow:0 1px 2px rgb(0 0 0/.05)}
h1{margin:0 0 .5rem;font-size:1.25rem}
p{margin:0 0 1.5rem;color:#475569;line-height:1.5}
a{display:inline-block;padding:.5rem 1rem;border-radius:.5rem;background:#1f5bc4;color:#fff;text-decoration:none;font-weight:600}
</style>
</head>
<body>
<main>
<h1>FieldCRM is temporarily unavailable</h1>
<p>The service cannot reach its database right now. Please try again in a moment.</p>
<a href="${escapeHtml(retryPath)}">Try again</a>
</main>
</body>
</html>
`;
  return new Response(html, {
    status: 503,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "retry-after": String(RETRY_AFTER_SECONDS),
    },
  });
}

import "server-only";

/** The origin the request was made to: what a link shown to the admin points at when APP_URL is unset. */
export function requestOrigin(request: Request): string {
  return new URL(request.url).origin;
}

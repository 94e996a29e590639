import Bowser from "bowser";

/** A session's device in words, from its User-Agent: "Firefox 130 on macOS", or "Unknown device". */
export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const { browser, os, platform } = Bowser.parse(userAgent);
  const major = browser.version?.split(".")[0];
  const name = browser.name ? `${browser.name}${major ? ` ${major}` : ""}` : "Unknown browser";
  const where = [platform.model && platform.vendor === "Apple" ? platform.model : os.name].filter(Boolean)[0];
  return where ? `${name} on ${where}` : name;
}

/**
 * Money and dates in the user's locale, the same way on every page. Locale and time zone come
 * from the browser (undefined = the runtime's default).
 */
const moneyFormatters = new Map<string, Intl.NumberFormat>();

export function formatMoney(value: number | null | undefined, options: { compact?: boolean } = {}): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const key = options.compact ? "compact" : "full";
  let formatter = moneyFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(undefined, {
      style: "currency",
      currency: "USD",
      ...(options.compact ? { notation: "compact", maximumFractionDigits: 1 } : {}),
    });
    moneyFormatters.set(key, formatter);
  }
  return formatter.format(value);
}

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  return new Intl.NumberFormat().format(value);
}

export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 }).format(value);
}

function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A calendar date (e.g. "Mar 31, 2026"). */
export function formatDate(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(date) : "—";
}

/** A date and time (e.g. "Mar 31, 2026, 9:30 AM"). */
export function formatDateTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date
    ? new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(date)
    : "—";
}

const periodFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A report period that starts at 00:00 UTC (a week from its Monday, or a month): "Mar 2, 2026"
 * or "Mar 2026". Formatted in UTC so the label is the period's own day in every time zone.
 */
export function formatPeriod(value: string | Date | null | undefined, unit: "week" | "month"): string {
  const date = toDate(value);
  if (!date) return "—";
  let formatter = periodFormatters.get(unit);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(
      undefined,
      unit === "month"
        ? { month: "short", year: "numeric", timeZone: "UTC" }
        : { dateStyle: "medium", timeZone: "UTC" },
    );
    periodFormatters.set(unit, formatter);
  }
  return formatter.format(date);
}

/**
 * A phone number as a `tel:` address: digits and a leading +, the extension as `;ext=` (RFC 3966),
 * so a tap dials it whatever punctuation it was typed with. Null without a digit.
 */
export function telHref(phone: string): string | null {
  const [number = "", extension] = phone.split(/\s*(?:x|ext\.?|extension|#)\s*/i);
  const digits = number.replace(/[^\d+]/g, "").replace(/(?!^)\+/g, "");
  if (!/\d/.test(digits)) return null;
  const ext = extension?.replace(/\D/g, "");
  return `tel:${digits}${ext ? `;ext=${ext}` : ""}`;
}

/**
 * How long ago a moment was, short: "just now", "5 min ago", "2 h ago", "3 d ago"; from a week
 * back the date itself. A moment in the future (a clock ahead) reads "just now".
 */
export function formatRelativeTime(value: string | Date | null | undefined, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return "—";
  const seconds = Math.floor((now.getTime() - date.getTime()) / 1000);
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days} d ago`;
  return formatDate(date);
}

const HTML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe to put inside HTML markup or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}

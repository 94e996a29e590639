/** Requests per UTC day of an API key created without a limit (contract section 3). */
export const DEFAULT_DAILY_LIMIT = 1000;

/** The highest daily limit a key may be given. */
export const API_KEY_DAILY_LIMIT_MAX = 10_000_000;

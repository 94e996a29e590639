/**
 * Requests per UTC day of an API key created without a limit (contract section 3). A module of
 * its own, importing nothing, so that the table's column default, the settings schema and the
 * OpenAPI guide can all read it.
 */
export const DEFAULT_DAILY_LIMIT = 1000;

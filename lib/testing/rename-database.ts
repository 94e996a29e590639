import { runOnServer } from "./server-database";

/**
 * Renames a PostgreSQL database on the server at `serverUrl`, cutting its sessions first (a
 * rename needs it to have none): for outage tests, the database "missing" while clients of it
 * keep their pools, and then back.
 */
export async function renameDatabase(serverUrl: string, from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await runOnServer(
      serverUrl,
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1",
      [from],
    );
    try {
      return await runOnServer(serverUrl, `alter database "${from}" rename to "${to}"`);
    } catch (error) {
      // A pooled connection may have reconnected in between (55006: object in use).
      if ((error as { code?: string }).code !== "55006" || attempt > 20) throw error;
    }
  }
}

import { runOnServer } from "./server-database";

/**
 * Cuts the database's sessions first (a rename needs none): for outage tests, the database "missing"
 * while its clients keep their pools.
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

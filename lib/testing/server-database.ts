import pg from "pg";

/**
 * One statement on a connection of its own to the PostgreSQL server at `serverUrl`: CREATE,
 * DROP and ALTER DATABASE run outside a transaction and outside the database they change.
 */
export async function runOnServer(
  serverUrl: string,
  statement: string,
  values: unknown[] = [],
): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement, values);
  } finally {
    await client.end();
  }
}

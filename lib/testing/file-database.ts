import { afterAll, beforeAll } from "vitest";
import { useDatabaseForTests, type Database } from "@/lib/db/client";
import { createTestDatabase } from "./test-database";

/**
 * The test file's own database (createTestDatabase), which the route handlers use too: opened
 * before its first test, closed after its last. Call it at the top of the file.
 */
export function fileTestDatabase(): Database {
  let current: Database | undefined;
  const open = () => {
    if (!current) throw new Error("the test database opens in beforeAll: use it inside a test");
    return current;
  };
  beforeAll(async () => {
    current = await createTestDatabase();
    useDatabaseForTests(current);
  });
  afterAll(async () => {
    useDatabaseForTests(undefined);
    await current?.close();
  });
  return {
    get db() {
      return open().db;
    },
    get engine() {
      return open().engine;
    },
    get target() {
      return open().target;
    },
    migrate: () => open().migrate(),
    close: () => open().close(),
  };
}

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/lib/db/client";
import { runOnServer } from "./server-database";

/**
 * Migrates one database per run for each test file to copy (test-database.ts createTestDatabase): a
 * template database on PostgreSQL, a dump of a migrated data directory on PGlite.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `fcrm_template_${process.pid}_${randomBytes(4).toString("hex")}`;
    await runOnServer(serverUrl, `create database "${template}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    const dropTemplate = () => runOnServer(serverUrl, `drop database if exists "${template}" with (force)`);
    try {
      // Closed before any copy: CREATE DATABASE … TEMPLATE refuses a template with sessions.
      const database = await openDatabase({ kind: "postgres", url: url.toString() }, { poolSize: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
    } catch (error) {
      await dropTemplate();
      throw error;
    }
    project.provide("testDatabaseTemplate", template);
    return dropTemplate;
  }

  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "fcrm-test-db-"));
  const removeFolder = async () => fs.rmSync(folder, { recursive: true, force: true });
  try {
    const database = await openDatabase({ kind: "pglite-memory" });
    try {
      await database.migrate();
      // Drizzle's documented handle on the driver: the data directory is PGlite's to dump.
      const client = (database.db as unknown as { $client: PGlite }).$client;
      await client.exec("checkpoint");
      const dump = await client.dumpDataDir("none");
      const file = path.join(folder, "migrated.tar");
      fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
      project.provide("testDatabaseSnapshot", file);
    } finally {
      await database.close();
    }
  } catch (error) {
    await removeFolder();
    throw error;
  }
  return removeFolder;
}

// npm run db:migrate – applies the committed migrations in drizzle/ to DATABASE_URL's database.
import { openDatabase } from "@/lib/db/client";
import { env, parseDatabaseUrl } from "@/lib/env";
import { runCli } from "./cli";

runCli(async () => {
  const target = parseDatabaseUrl(env().DATABASE_URL);
  const database = await openDatabase(target);
  try {
    await database.migrate();
    console.log(`Migrations applied (${database.engine}).`);
  } finally {
    await database.close();
  }
});

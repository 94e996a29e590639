// npm start – the production server (after `npm run build`): applies pending migrations, then
// runs `next start` on PORT (default 3000).
import { openDatabase } from "@/lib/db/client";
import { DirectoryInUseError } from "@/lib/db/directory-lock";
import { env, parseDatabaseUrl } from "@/lib/env";
import { runNext } from "./next-process";

async function main() {
  const { DATABASE_URL, PORT } = env();
  const target = parseDatabaseUrl(DATABASE_URL);
  if (target.kind !== "pglite-memory") {
    const database = await openDatabase(target);
    try {
      await database.migrate();
    } finally {
      // The embedded database serves one process at a time: release it before Next opens it.
      await database.close();
    }
  }
  console.log(`FieldCRM: http://localhost:${PORT}`);
  runNext("start", PORT);
}

main().catch((error: unknown) => {
  console.error(error instanceof DirectoryInUseError ? `Error: ${error.message}` : error);
  process.exit(1);
});

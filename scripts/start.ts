// npm start – the production server (after `npm run build`): applies pending migrations, then
// serves the app on PORT (default 3000) from this same process (scripts/server.ts), so the
// embedded database is opened once and held until the server stops. SIGTERM or SIGINT stops it
// gracefully: requests in flight finish, the database is closed, the exit status is 0.
import { getDatabase } from "@/lib/db/client";
import { DirectoryInUseError } from "@/lib/db/directory-lock";
import { env } from "@/lib/env";
import { runProductionServer, setProductionMode } from "./server";

async function main() {
  setProductionMode();
  const { PORT } = env();
  // Opens the database for the whole life of the server (the embedded one also migrates here).
  const database = await getDatabase();
  if (database.engine === "postgres") await database.migrate();
  await runProductionServer({ port: PORT });
}

main().catch((error: unknown) => {
  console.error(error instanceof DirectoryInUseError ? `Error: ${error.message}` : error);
  process.exit(1);
});

// npm run worker – delivers webhooks in a process of its own (PostgreSQL: next to servers started
// with WEBHOOKS_WORKER=off, or several of them; the queue hands each job to one). On the embedded
// database only one process can open it, so there the server's own worker is the one.
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { DirectoryInUseError } from "@/lib/db/directory-lock";
import { startProcessWebhookWorker, stopProcessWebhookWorker } from "@/lib/domain/webhooks/process-worker";
import { InvalidEnvironmentError } from "@/lib/env";

async function main() {
  const database = await getDatabase();
  if (database.engine === "postgres") await database.migrate();
  await startProcessWebhookWorker({ force: true });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      console.log(`${signal}: stopping the webhook worker`);
      void stopProcessWebhookWorker()
        .then(() => closeDatabase())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    });
  }
}

main().catch((error: unknown) => {
  const clear = error instanceof DirectoryInUseError || error instanceof InvalidEnvironmentError;
  console.error(clear ? `Error: ${(error as Error).message}` : error);
  process.exit(1);
});

// Next.js calls register() once when a server process starts (`npm start`, each cluster worker,
// `next start`, `next dev`): the webhook delivery worker runs next to the server.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startProcessWebhookWorker } = await import("@/lib/domain/webhooks/process-worker");
  // A database that is down now must not stop the server from starting: the log says why.
  startProcessWebhookWorker()?.catch((error: unknown) => {
    console.error(
      "webhooks: the delivery worker did not start:",
      error instanceof Error ? error.message : error,
    );
  });
}

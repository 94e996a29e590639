// The production HTTP server: Next's handler on node:http, with the graceful shutdown `next start`
// lacks, which closes the database cleanly so the embedded engine's next start is quick and safe.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { beforeRouting } from "@/lib/api/before-routing";
import { closeDatabase } from "@/lib/db/client";
import { stopProcessWebhookWorker } from "@/lib/domain/webhooks/process-worker";
import { loadSecurityHeaders } from "@/lib/security/next-config-headers";

/** How long a shutdown waits for requests in flight before it cuts them off. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface ServerOptions {
  port: number;
  hostname?: string;
  /** The project folder (next.config.mjs and the build); default: the current directory. */
  dir?: string;
  shutdownGraceMs?: number;
  log?: (message: string) => void;
}

export interface ProductionServer {
  url: string;
  /** Requests being answered right now. */
  inFlight(): number;
  /** Stops accepting, waits for requests in flight, closes Next and the database; resolves the exit status. */
  shutdown(reason: string): Promise<number>;
}

/**
 * A production server renders with React's production build and marks cookies Secure over https:
 * NODE_ENV must say so before Next (or lib/env) first reads it.
 */
export function setProductionMode(): void {
  Object.assign(process.env, { NODE_ENV: "production" });
}

export async function startProductionServer(options: ServerOptions): Promise<ProductionServer> {
  const log = options.log ?? ((message: string) => console.log(message));
  const dir = path.resolve(options.dir ?? process.cwd());
  const hostname = options.hostname ?? "0.0.0.0";
  const grace = options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
  setProductionMode();
  const { default: next } = await import("next");
  const app = next({ dev: false, dir, hostname, port: options.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // Requests Next.js fails before our code runs (malformed paths, TRACE, CONNECT) are answered here.
  const early = beforeRouting(await loadSecurityHeaders(dir));

  const active = new Set<http.ServerResponse>();
  let draining = false;
  let onDrained: (() => void) | undefined;

  const server = http.createServer((req, res) => {
    active.add(res);
    res.on("close", () => {
      active.delete(res);
      if (draining && active.size === 0) onDrained?.();
    });
    // While stopping, answers still go out, but the client is told not to reuse the connection.
    if (draining) res.setHeader("connection", "close");
    if (early.answer(req, res)) return;
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("content-type", "application/json; charset=utf-8");
        res.end(JSON.stringify({ status: "error", message: "Internal server error" }));
      } else {
        res.destroy();
      }
    });
  });

  server.on("connect", early.refuseConnect);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  const url = `http://${shownHost}:${address.port}`;

  let stopping: Promise<number> | undefined;
  const shutdown = (reason: string): Promise<number> => {
    stopping ??= (async () => {
      draining = true;
      log(`${reason}: stopping; ${active.size} request(s) in flight`);
      server.close(); // no new connections
      server.closeIdleConnections();
      for (const res of active) if (!res.headersSent) res.setHeader("connection", "close");
      let status = 0;
      if (active.size > 0) {
        const drained = new Promise<boolean>((resolve) => {
          onDrained = () => resolve(true);
          setTimeout(() => resolve(false), grace).unref();
        });
        if (!(await drained)) {
          log(`${active.size} request(s) still running after ${grace / 1000} s: cut off`);
          status = 1;
        }
      }
      server.closeAllConnections();
      // Closing must not hang the exit either (a database that stopped answering).
      const closed = await withinTime(
        (async () => {
          await app.close().catch(() => {});
          // The worker's jobs in flight finish first: it uses the database too.
          await stopProcessWebhookWorker();
          await closeDatabase();
        })(),
        grace,
      );
      if (!closed) {
        log(`the database did not close within ${grace / 1000} s`);
        return 1;
      }
      log("database closed; stopped");
      return status;
    })();
    return stopping;
  };

  return { url, inFlight: () => active.size, shutdown };
}

/** Whether the work finished (or failed) within `ms`. */
function withinTime(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    work
      .then(
        () => resolve(true),
        (error: unknown) => {
          console.error(error);
          resolve(true);
        },
      )
      .finally(() => clearTimeout(timer));
  });
}

/**
 * Runs the server until SIGTERM/SIGINT, then exits with the shutdown's status. Resolves once it
 * listens and the signals are handled (the caller says where it listens: one line per start).
 */
export async function runProductionServer(options: ServerOptions): Promise<ProductionServer> {
  const running = await startProductionServer(options);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // A repeated signal while stopping changes nothing: the grace period bounds the wait.
    process.on(signal, () => void running.shutdown(signal).then((status) => process.exit(status)));
  }
  return running;
}

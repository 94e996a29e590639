import { spawn } from "node:child_process";
import path from "node:path";

/**
 * Runs `next <command> --port <port>` in the foreground: its output is ours, SIGINT/SIGTERM reach
 * it, and this process exits with its exit status once it has stopped.
 */
export function runNext(command: "dev" | "start", port: number, extraArgs: string[] = []): void {
  const bin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
  const child = spawn(process.execPath, [bin, command, "--port", String(port), ...extraArgs], {
    stdio: "inherit",
    env: process.env,
  });
  // Ctrl-C in a terminal signals the whole process group; a signal sent to this process alone
  // (kill <pid>, a process manager) is passed on. Either way we wait for Next to finish.
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  process.on("SIGHUP", forward("SIGHUP"));
  child.on("error", (error) => {
    console.error(`Could not start next ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    const signals: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
    process.exit(code ?? (signal ? 128 + (signals[signal] ?? 0) : 1));
  });
}

import "server-only";
import fs from "node:fs";
import path from "node:path";

export interface DirectoryLock {
  release(): void;
}

export class DirectoryInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${pid}. ` +
        "Stop the server (or the other command) first: the embedded database serves one process at a time.",
    );
    this.name = "DirectoryInUseError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite on disk must be opened by one process at a time; two would corrupt it. A lock file
 * holds the owner's pid; a lock left by a dead process is taken over.
 */
export function acquireDirectoryLock(dir: string): DirectoryLock {
  const file = path.join(dir, ".fieldcrm.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.on("exit", release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
      if (Number.isFinite(pid) && pid !== process.pid && isAlive(pid))
        throw new DirectoryInUseError(dir, pid);
      if (pid === process.pid) throw new DirectoryInUseError(dir, pid);
      fs.rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

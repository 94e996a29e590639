import "server-only";

/*
 * Work that runs after the answer is sent: a password reset request answers at once, the same
 * whether or not the email has accounts, and its lookup and email happen here. A failure is
 * logged without its details (they may hold a link); tests wait with settleBackgroundWork.
 */

const pending = new Set<Promise<void>>();

export function runInBackground(label: string, work: () => Promise<void>): void {
  const task = work()
    .catch((error: unknown) => {
      const name = error instanceof Error ? error.name : "Error";
      console.error(JSON.stringify({ level: "error", msg: `${label} failed`, error: name }));
    })
    .finally(() => pending.delete(task));
  pending.add(task);
}

/** Resolves once every piece of background work started so far has ended (tests). */
export async function settleBackgroundWork(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

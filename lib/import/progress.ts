import "server-only";
/** Files at least this large show a progress bar. */
export const PROGRESS_THRESHOLD = 5000;

export interface ProgressBar {
  update(done: number): void;
  finish(): void;
  /** Ends the bar where it stopped, with a word (e.g. "refused"), so later output starts a line. */
  stop(note: string): void;
}

/**
 * A progress bar on stderr (so stdout keeps only the result). On a terminal it redraws one line;
 * elsewhere (CI logs, pipes) it prints a line every 10%.
 */
export function createProgressBar(
  stream: NodeJS.WriteStream,
  total: number,
  label: string,
  width = 30,
): ProgressBar {
  let lastDraw = 0;
  let lastTenth = -1;
  let finished = false;
  let lastDone = 0;
  const started = Date.now();
  const render = (done: number) => {
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(ratio * width);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.floor(ratio * 100)
      .toString()
      .padStart(3)}% ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} ${seconds}s`;
  };
  return {
    update(done) {
      if (finished) return;
      lastDone = done;
      if (stream.isTTY) {
        const now = Date.now();
        if (now - lastDraw < 100 && done < total) return;
        lastDraw = now;
        stream.write(`\r${render(done)}`);
      } else {
        const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
        if (tenth === lastTenth) return;
        lastTenth = tenth;
        stream.write(`${render(done)}\n`);
      }
    },
    finish() {
      if (finished) return;
      finished = true;
      if (stream.isTTY) stream.write(`\r${render(total)}\n`);
      else if (lastTenth < 10) stream.write(`${render(total)}\n`);
    },
    stop(note) {
      if (finished) return;
      finished = true;
      // Elsewhere each drawing has its own line: one more says how it stopped.
      if (stream.isTTY) stream.write(`\r${render(lastDone)} ${note}\n`);
      else stream.write(`${label} ${note}\n`);
    },
  };
}

import "server-only";
import { SingleBar } from "cli-progress";
/** Files at least this large show a progress bar. */
export const PROGRESS_THRESHOLD = 5000;

export interface ProgressBar {
  update(done: number): void;
  finish(): void;
  /** Ends the bar where it stopped, with a word (e.g. "refused"), so later output starts a line. */
  stop(note: string): void;
}

/**
 * A progress bar on stderr (so stdout keeps only the result). On a terminal cli-progress redraws
 * one line; elsewhere (CI logs, pipes) it prints a line every 10%.
 */
export function createProgressBar(
  stream: NodeJS.WriteStream,
  total: number,
  label: string,
  width = 30,
): ProgressBar {
  let lastTenth = -1;
  let finished = false;
  const started = Date.now();
  const render = (done: number) => {
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(ratio * width);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.floor(ratio * 100)
      .toString()
      .padStart(3)}% ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} ${seconds}s`;
  };
  if (stream.isTTY) return terminalBar(stream, total, render);
  return {
    update(done) {
      if (finished) return;
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(`${render(done)}\n`);
    },
    finish() {
      if (finished) return;
      finished = true;
      if (lastTenth < 10) stream.write(`${render(total)}\n`);
    },
    stop(note) {
      if (finished) return;
      finished = true;
      // Each drawing has its own line: one more says how it stopped.
      stream.write(`${label} ${note}\n`);
    },
  };
}

/** The bar on a terminal: one line, redrawn; stopped, it keeps its last drawing and a note. */
function terminalBar(
  stream: NodeJS.WriteStream,
  total: number,
  render: (done: number) => string,
): ProgressBar {
  let note = "";
  let finished = false;
  const bar = new SingleBar({
    stream,
    format: (_options, params) => `${render(params.value)}${note}`,
    // The process ends right after the bar; a hidden cursor or a SIGINT handler would outlive it.
    hideCursor: false,
    gracefulExit: false,
    clearOnComplete: false,
    linewrap: false,
  });
  bar.start(total, 0);
  return {
    update(done) {
      if (!finished) bar.update(done);
    },
    finish() {
      if (finished) return;
      finished = true;
      bar.update(total);
      bar.stop();
    },
    stop(text) {
      if (finished) return;
      finished = true;
      note = ` ${text}`;
      bar.stop();
    },
  };
}

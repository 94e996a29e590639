/**
 * A progress bar on stderr: redrawn in place on a terminal, one line per tenth otherwise (logs of
 * a background run stay readable).
 */
export class Progress {
  private done = 0;
  private lastTenth = -1;
  private readonly started = performance.now();
  private readonly tty: boolean;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly unit = "rows",
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  /** Adds finished units and says what is being done now. */
  tick(units: number, what = ""): void {
    this.done = Math.min(this.total, this.done + units);
    this.draw(what);
  }

  finish(what = "done"): void {
    this.done = this.total;
    this.draw(what);
    if (this.tty) this.out.write("\n");
  }

  private draw(what: string): void {
    const fraction = this.total > 0 ? this.done / this.total : 1;
    const seconds = (performance.now() - this.started) / 1000;
    const line = formatProgress(this.label, fraction, this.done, this.total, seconds, what, this.unit);
    if (this.tty) {
      this.out.write(`\r${line.padEnd(110).slice(0, Math.max(20, (this.out.columns ?? 120) - 1))}`);
      return;
    }
    const tenth = Math.floor(fraction * 10);
    if (tenth !== this.lastTenth) {
      this.lastTenth = tenth;
      this.out.write(`${line}\n`);
    }
  }
}

export function formatProgress(
  label: string,
  fraction: number,
  done: number,
  total: number,
  seconds: number,
  what: string,
  unit = "rows",
): string {
  const width = 24;
  const filled = Math.round(fraction * width);
  const bar = `${"#".repeat(filled)}${".".repeat(width - filled)}`;
  const rate = seconds > 0 ? Math.round(done / seconds) : 0;
  return `${label} [${bar}] ${(fraction * 100).toFixed(0).padStart(3)}% ${done.toLocaleString("en-US")}/${total.toLocaleString(
    "en-US",
  )} ${unit} ${seconds.toFixed(0)}s ${rate.toLocaleString("en-US")}/s ${what}`;
}

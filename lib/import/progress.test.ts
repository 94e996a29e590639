import { describe, expect, it } from "vitest";
import { createProgressBar } from "./progress";

/** The text a terminal shows, without the escape sequences that move the cursor and clear the line. */
const shown = (output: string) => output.replace(/\x1b(\[[0-9;?]*[A-Za-z]|[78])/g, "");

function fakeStream(isTTY: boolean) {
  const stream = { isTTY, output: "", write: (text: string) => ((stream.output += text), true) };
  return stream;
}

describe("createProgressBar", () => {
  it("on a terminal, stop ends the bar's line where it stopped, so later output starts a line", () => {
    const stream = fakeStream(true);
    const bar = createProgressBar(stream as unknown as NodeJS.WriteStream, 10_000, "Importing");
    bar.update(5_000);
    expect(stream.output).not.toContain("\n");
    bar.stop("refused");
    // cli-progress redraws the line in place (escape sequences), then ends it.
    expect(shown(stream.output)).toMatch(/Importing \[#{15}-{15}\]  50% 5,000\/10,000 \d+\.\ds refused\n$/);
    bar.update(6_000);
    bar.finish();
    bar.stop("refused");
    expect(stream.output.match(/\n/g)).toHaveLength(1);
  });

  it("elsewhere, stop adds one line saying how the bar stopped", () => {
    const stream = fakeStream(false);
    const bar = createProgressBar(stream as unknown as NodeJS.WriteStream, 10_000, "Importing");
    bar.update(5_000);
    bar.stop("refused");
    const lines = stream.output.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Importing \[#{15}-{15}\]  50% /);
    expect(lines[1]).toBe("Importing refused");
    expect(lines[2]).toBe("");
  });

  it("finish draws the full bar once and ends its line", () => {
    const stream = fakeStream(true);
    const bar = createProgressBar(stream as unknown as NodeJS.WriteStream, 10, "Seeding");
    bar.update(3);
    bar.finish();
    bar.stop("refused");
    expect(shown(stream.output)).toMatch(/Seeding \[#{30}\] 100% 10\/10 \d+\.\ds\n$/);
    expect(stream.output).not.toContain("refused");
  });
});

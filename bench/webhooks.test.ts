import { describe, expect, it } from "vitest";
import { pairedRatio, parseOptions, rssMbOf, summarizeRss } from "./webhooks";

describe("parseOptions", () => {
  it("defaults to PostgreSQL, 5,000 events, backlogs of 10k and 100k and every part", () => {
    expect(parseOptions([])).toEqual({
      engine: "postgres",
      events: 5000,
      backlogs: [10_000, 100_000],
      rounds: 8,
      calls: 100,
      parts: ["write", "throughput", "backlog"],
    });
  });

  it("reads each flag, underscores in numbers included", () => {
    expect(
      parseOptions([
        "--engine",
        "pglite",
        "--events",
        "1_000",
        "--backlogs",
        "500, 2000",
        "--parts",
        "backlog,write",
      ]),
    ).toMatchObject({ engine: "pglite", events: 1000, backlogs: [500, 2000], parts: ["backlog", "write"] });
  });

  it("names the flag of a bad value", () => {
    expect(() => parseOptions(["--engine", "mysql"])).toThrow(/--engine must be postgres or pglite/);
    expect(() => parseOptions(["--events", "0"])).toThrow(/--events must be a positive whole number/);
    expect(() => parseOptions(["--backlogs", "10k"])).toThrow(/--backlogs must be/);
    expect(() => parseOptions(["--parts", "write,speed"])).toThrow(/--parts takes .*not "speed"/);
    expect(() => parseOptions(["--fast"])).toThrow(/Unknown option/);
  });
});

describe("pairedRatio", () => {
  it("is the median of each round's with/without, with the extremes", () => {
    const result = pairedRatio([
      { without: 10, with: 11 },
      { without: 20, with: 20 },
      // A busy round slows both sides: its ratio stays in line.
      { without: 40, with: 48 },
    ]);
    expect(result.median).toBeCloseTo(1.1);
    expect(result.min).toBe(1);
    expect(result.max).toBeCloseTo(1.2);
  });

  it("refuses no rounds", () => {
    expect(() => pairedRatio([])).toThrow("no rounds");
  });
});

describe("rssMbOf", () => {
  it("reads VmRSS from /proc/<pid>/status in MB", () => {
    const status = "Name:\tnode\nVmPeak:\t 1234567 kB\nVmRSS:\t  153600 kB\nRssAnon:\t  100000 kB\n";
    expect(rssMbOf(status)).toBe(150);
  });

  it("is undefined for a process without memory (a zombie's status has no VmRSS)", () => {
    expect(rssMbOf("Name:\tnode\nState:\tZ (zombie)\n")).toBeUndefined();
  });
});

describe("summarizeRss", () => {
  it("starts at the first sample with a delivery and compares the peaks of the two halves", () => {
    const samples = [
      { atMs: 500, mb: 90, delivered: 0 },
      { atMs: 1000, mb: 120, delivered: 10 },
      { atMs: 1500, mb: 130, delivered: 50 },
      { atMs: 2000, mb: 125, delivered: 60 },
      { atMs: 2500, mb: 128, delivered: 100 },
    ];
    expect(summarizeRss(samples, 100)).toEqual({
      startMb: 120,
      peakMb: 130,
      endMb: 128,
      firstHalfPeakMb: 130,
      secondHalfPeakMb: 128,
      samples: 5,
    });
  });

  it("uses every sample when none saw a delivery, and refuses none at all", () => {
    expect(summarizeRss([{ atMs: 500, mb: 90, delivered: 0 }], 10)).toMatchObject({
      startMb: 90,
      peakMb: 90,
      endMb: 90,
    });
    expect(() => summarizeRss([], 10)).toThrow("no samples");
  });
});

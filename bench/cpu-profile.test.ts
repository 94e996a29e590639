import { describe, expect, it } from "vitest";
import { summarizeProfile } from "./cpu-profile";

describe("summarizeProfile", () => {
  it("adds each sample's time to its function and to its package or project folder, largest first", () => {
    const root = `file://${process.cwd()}`;
    const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });
    const summary = summarizeProfile({
      nodes: [
        { id: 1, callFrame: frame("(root)", "") },
        { id: 2, callFrame: frame("is", `${root}/node_modules/drizzle-orm/entity.cjs`, 27) },
        { id: 3, callFrame: frame("mapRow", `${root}/node_modules/@scope/pkg/map.js`, 9) },
        { id: 4, callFrame: frame("jsonResponse", `${root}/lib/api/handler.ts`, 1) },
        { id: 5, callFrame: frame("writev", "") },
        { id: 6, callFrame: frame("(garbage collector)", "") },
      ],
      samples: [2, 2, 3, 4, 5, 6, 2, 99],
      timeDeltas: [1000, 2000, 500, 1500, 3000, 250, 1000, 700],
    });
    expect(summary.totalMs).toBe(9.25); // the sample of an unknown node (99) counts nowhere
    expect(summary.byPlace).toEqual([
      ["drizzle-orm", 4],
      ["(native)", 3],
      ["lib/api", 1.5],
      ["@scope/pkg", 0.5],
      ["(garbage collector)", 0.25],
    ]);
    expect(summary.byFunction[0]).toEqual(["is drizzle-orm/entity.cjs:28", 4]);
    expect(summary.byFunction).toContainEqual(["jsonResponse lib/api/handler.ts:2", 1.5]);
    expect(summary.byFunction).toContainEqual(["mapRow @scope/pkg/map.js:10", 0.5]);
  });
});

import { describe, expect, it } from "vitest";
import { ShadowKeys } from "./shadow-keys";

const found = (keys: ShadowKeys, kind: "id" | "phone" | "email", values: string[]) => {
  const into = new Set<number>();
  keys.collect(kind, values, into);
  return [...into].sort((a, b) => a - b);
};

describe("ShadowKeys", () => {
  it("finds each value's slots after growing, by kind, each pair once", () => {
    const keys = new ShadowKeys();
    for (let slot = 0; slot < 20_000; slot++) {
      keys.add("phone", `555${slot}`, slot);
      keys.add("email", `p${slot}@example.test`, slot);
    }
    keys.add("phone", "5557", 7);
    keys.add("phone", "5557", 19_999);
    expect(found(keys, "phone", ["5557"])).toEqual([7, 19_999]);
    expect(found(keys, "email", ["p12345@example.test", "p0@example.test"])).toEqual([0, 12_345]);
    expect(found(keys, "phone", ["p0@example.test"])).toEqual([]);
    expect(found(keys, "id", ["5557"])).toEqual([]);
    expect(found(keys, "phone", ["nobody"])).toEqual([]);
  });

  it("with a narrow hash, answers a superset: every slot of a colliding value", () => {
    const keys = new ShadowKeys(1);
    for (let slot = 0; slot < 100; slot++) keys.add("email", `p${slot}@example.test`, slot);
    const candidates = found(keys, "email", ["p3@example.test"]);
    expect(candidates).toContain(3);
    expect(candidates.length).toBeGreaterThan(1);
  });
});

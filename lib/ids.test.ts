import { describe, expect, it } from "vitest";
import { ID_PREFIX, newId } from "./ids";

describe("newId", () => {
  it("makes prefixed ids of 10 time and 16 random characters, unique across pool refills", () => {
    // 10,000 ids draw 160,000 random bytes: the pool is refilled many times on the way.
    const ids = Array.from({ length: 10_000 }, () => newId(ID_PREFIX.lead));
    for (const id of ids) expect(id).toMatch(/^lead_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(15))).size).toBe(ids.length);
  });

  it("sorts later ids after earlier ones", async () => {
    const first = newId(ID_PREFIX.customer);
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(newId(ID_PREFIX.customer) > first).toBe(true);
  });
});

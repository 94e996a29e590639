import "server-only";

/** The values a dry run's shadow rows are looked up by. */
export type ShadowKeyKind = "id" | "phone" | "email";

const KIND_CODE: Record<ShadowKeyKind, number> = { id: 1, phone: 2, email: 3 };

/**
 * The dry run's index of its shadow table, in memory: which shadow rows (by slot) may hold an id,
 * a phone or an email. Keys are hashes, so a million rows cost no strings here; a slot found is a
 * candidate only, and the caller keeps the rows whose values are equal. A value a row no longer
 * holds stays listed: the caller's comparison drops it.
 */
export class ShadowKeys {
  private readonly slots = new Map<number, number | number[]>();
  private readonly mask: number;

  /** `bits`: the hash's width (small values make every key collide, for tests). */
  constructor(bits = 31) {
    this.mask = bits >= 31 ? 0x7fffffff : (1 << bits) - 1;
  }

  add(kind: ShadowKeyKind, value: string, slot: number): void {
    const key = this.hash(kind, value);
    const listed = this.slots.get(key);
    if (listed === undefined) this.slots.set(key, slot);
    else if (typeof listed === "number") {
      if (listed !== slot) this.slots.set(key, [listed, slot]);
    } else if (!listed.includes(slot)) listed.push(slot);
  }

  /** Adds to `into` the slots that may hold one of these values. */
  collect(kind: ShadowKeyKind, values: Iterable<string>, into: Set<number>): void {
    for (const value of values) {
      const listed = this.slots.get(this.hash(kind, value));
      if (listed === undefined) continue;
      if (typeof listed === "number") into.add(listed);
      else for (const slot of listed) into.add(slot);
    }
  }

  /** FNV-1a over the kind and the value's UTF-16 code units, cut to the mask (a small integer). */
  private hash(kind: ShadowKeyKind, value: string): number {
    let h = Math.imul(0x811c9dc5 ^ KIND_CODE[kind], 0x01000193);
    for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
    return (h >>> 0) & this.mask;
  }
}

import "server-only";

/** The values a dry run's shadow rows are looked up by. */
export type ShadowKeyKind = "id" | "phone" | "email";

const KIND_CODE: Record<ShadowKeyKind, number> = { id: 1, phone: 2, email: 3 };

const EMPTY = -1;
const FIRST_CAPACITY = 1 << 12;

/**
 * The dry run's index of its shadow table, in memory: which shadow rows (by slot) may hold an id,
 * a phone or an email. Keys are hashes, so a million rows cost no strings here; a slot found is a
 * candidate only, and the caller keeps the rows whose values are equal. A value a row no longer
 * holds stays listed: the caller's comparison drops it.
 *
 * (hash, slot) pairs live in typed arrays, open addressing with linear probing, at most half
 * full: two million pairs take 32 MB outside the JS heap, where the garbage collector's heap
 * limits do not grow with them.
 */
export class ShadowKeys {
  private hashes = new Int32Array(FIRST_CAPACITY).fill(EMPTY);
  private slots = new Int32Array(FIRST_CAPACITY);
  private count = 0;
  private readonly mask: number;

  /** `bits`: the hash's width (small values make every key collide, for tests). */
  constructor(bits = 31) {
    this.mask = bits >= 31 ? 0x7fffffff : (1 << bits) - 1;
  }

  add(kind: ShadowKeyKind, value: string, slot: number): void {
    if (this.insert(this.hash(kind, value), slot) && ++this.count * 2 > this.hashes.length) this.grow();
  }

  /** Adds to `into` the slots that may hold one of these values. */
  collect(kind: ShadowKeyKind, values: Iterable<string>, into: Set<number>): void {
    const { hashes, slots } = this;
    const last = hashes.length - 1;
    for (const value of values) {
      const hash = this.hash(kind, value);
      for (let i = hash & last; hashes[i] !== EMPTY; i = (i + 1) & last) {
        if (hashes[i] === hash) into.add(slots[i]!);
      }
    }
  }

  /** Whether the pair was new. */
  private insert(hash: number, slot: number): boolean {
    const { hashes, slots } = this;
    const last = hashes.length - 1;
    let i = hash & last;
    for (; hashes[i] !== EMPTY; i = (i + 1) & last) {
      if (hashes[i] === hash && slots[i] === slot) return false;
    }
    hashes[i] = hash;
    slots[i] = slot;
    return true;
  }

  private grow(): void {
    const { hashes, slots } = this;
    this.hashes = new Int32Array(hashes.length * 2).fill(EMPTY);
    this.slots = new Int32Array(hashes.length * 2);
    for (let i = 0; i < hashes.length; i++) if (hashes[i] !== EMPTY) this.insert(hashes[i]!, slots[i]!);
  }

  /** FNV-1a over the kind and the value's UTF-16 code units, cut to the mask (never negative). */
  private hash(kind: ShadowKeyKind, value: string): number {
    let h = Math.imul(0x811c9dc5 ^ KIND_CODE[kind], 0x01000193);
    for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
    return (h >>> 0) & this.mask;
  }
}

/**
 * A seeded pseudo-random generator (mulberry32) and the few helpers the demo data needs. The same
 * seed gives the same sequence on every machine, so the demo data is the same everywhere.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of the items, each with its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [item, weight] of items) {
      r -= weight;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** Up to `count` distinct items, in list order. */
  some<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    const want = Math.min(count, items.length);
    while (chosen.size < want) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i]!);
  }

  /** Money: a whole-dollar or round amount between min and max. */
  dollars(min: number, max: number, step = 5): number {
    return Math.round(this.float(min, max) / step) * step;
  }
}

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * An id shaped like lib/ids newId (prefix, 10 characters of time, 16 random characters) but made
 * from the record's creation time and the seeded generator, so that it is the same on every seed.
 */
export function seededId(prefix: string, createdAt: Date, random: Random): string {
  let time = "";
  let n = createdAt.getTime();
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[n % 32] + time;
    n = Math.floor(n / 32);
  }
  let tail = "";
  for (let i = 0; i < 16; i++) tail += CROCKFORD[random.int(0, 31)];
  return `${prefix}_${time}${tail}`;
}

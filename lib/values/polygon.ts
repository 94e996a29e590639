/**
 * A territory's ring (extensions.md E6): one outer ring of in-range [lng, lat], closed, repeats merged, 3 to
 * TERRITORY_MAX_POINTS corners not all on a line, no edges crossing or touching but neighbours at a corner.
 */

/** Most corners of a territory's ring (the closing repetition of the first corner not counted). */
export const TERRITORY_MAX_POINTS = 1000;

export type Position = [number, number];

/** The ring's problem, or its corners (first corner not repeated at the end). */
export type RingCheck = { ok: true; corners: Position[] } | { ok: false; message: string };

const samePosition = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/** Checks a ring of positions already known to be [lng, lat] pairs of finite numbers in range. */
export function checkRing(ring: readonly Position[]): RingCheck {
  const corners: Position[] = [];
  for (const position of ring) {
    const last = corners[corners.length - 1];
    if (!last || !samePosition(last, position)) corners.push([position[0], position[1]]);
  }
  // A closed ring repeats its first corner last: the corners are those before it.
  while (corners.length > 1 && samePosition(corners[0]!, corners[corners.length - 1]!)) corners.pop();
  if (corners.length < 3) {
    return { ok: false, message: "must have at least 3 distinct positions" };
  }
  if (corners.length > TERRITORY_MAX_POINTS) {
    return {
      ok: false,
      message: `must have at most ${TERRITORY_MAX_POINTS.toLocaleString("en-US")} positions (it has ${corners.length.toLocaleString("en-US")})`,
    };
  }
  if (corners.every((corner) => orientation(corners[0]!, corners[1]!, corner) === 0)) {
    return { ok: false, message: "must enclose an area (its positions are on one line)" };
  }
  const crossing = firstCrossing(corners);
  if (crossing) {
    return {
      ok: false,
      message: `must not intersect itself: edge ${crossing[0] + 1} and edge ${crossing[1] + 1} meet`,
    };
  }
  return { ok: true, corners };
}

/** Sign of the turn a → b → c: 1 left, -1 right, 0 on one line. */
function orientation(a: Position, b: Position, c: Position): number {
  const value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

/** c on the segment a–b, given that the three are on one line. */
function onSegment(a: Position, b: Position, c: Position): boolean {
  return (
    Math.min(a[0], b[0]) <= c[0] &&
    c[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= c[1] &&
    c[1] <= Math.max(a[1], b[1])
  );
}

/** Whether the closed segments p1–p2 and q1–q2 have a point in common. */
function segmentsMeet(p1: Position, p2: Position, q1: Position, q2: Position): boolean {
  const o1 = orientation(p1, p2, q1);
  const o2 = orientation(p1, p2, q2);
  const o3 = orientation(q1, q2, p1);
  const o4 = orientation(q1, q2, p2);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(p1, p2, q1)) ||
    (o2 === 0 && onSegment(p1, p2, q2)) ||
    (o3 === 0 && onSegment(q1, q2, p1)) ||
    (o4 === 0 && onSegment(q1, q2, p2))
  );
}

/**
 * The first pair of edges (edge i runs from corner i) that meet where they should not. Testing every pair
 * is fine: at most 1,000 corners is half a million cheap tests.
 */
function firstCrossing(corners: readonly Position[]): [number, number] | undefined {
  const n = corners.length;
  const at = (i: number) => corners[i % n]!;
  for (let i = 0; i < n; i++) {
    // Neighbours share a corner; they may only overlap further when the ring turns back on itself.
    const [a, b, c] = [at(i), at(i + 1), at(i + 2)];
    if (orientation(a, b, c) === 0 && (onSegment(a, b, c) || onSegment(b, c, a))) return [i, (i + 1) % n];
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // the last edge ends where the first begins
      if (segmentsMeet(at(i), at(i + 1), at(j), at(j + 1))) return [i, j];
    }
  }
  return undefined;
}

/** The corners as the GeoJSON ring the API answers: closed, first corner repeated last. */
export function closedRing(corners: readonly Position[]): Position[] {
  return [...corners, corners[0]!].map(([lng, lat]) => [lng, lat]);
}

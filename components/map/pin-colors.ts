/**
 * Color checks for pin types: which text is readable on a type's color (its outcome button),
 * and whether two types' colors are too close to tell apart on the map and in the legend.
 */

/** [r, g, b] 0..255 of #rgb or #rrggbb; null for anything else. */
export function parseHex(color: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance. */
export function luminance(rgb: [number, number, number]): number {
  const [r, g, b] = rgb.map(linear) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white text, whichever contrasts more with the color. */
export function textColorOn(color: string): "#000000" | "#ffffff" {
  const rgb = parseHex(color);
  if (!rgb) return "#ffffff";
  return contrastRatio(rgb, [0, 0, 0]) >= contrastRatio(rgb, [255, 255, 255]) ? "#000000" : "#ffffff";
}

/** CIE L*a*b* (D65) of an sRGB color. */
function toLab(rgb: [number, number, number]): [number, number, number] {
  const [r, g, b] = rgb.map(linear) as [number, number, number];
  const xyz = [
    (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
    0.2126 * r + 0.7152 * g + 0.0722 * b,
    (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
  ].map((t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116)) as [number, number, number];
  return [116 * xyz[1] - 16, 500 * (xyz[0] - xyz[1]), 200 * (xyz[1] - xyz[2])];
}

/** Euclidean distance in Lab (CIE76 ΔE); null when a color is not a hex color. */
export function colorDistance(a: string, b: string): number | null {
  const ra = parseHex(a);
  const rb = parseHex(b);
  if (!ra || !rb) return null;
  const [la, lb] = [toLab(ra), toLab(rb)];
  return Math.hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
}

/** Below this ΔE two small dots on a map are easily mistaken for each other. */
export const MIN_COLOR_DISTANCE = 20;

/** Pairs of entries whose colors are too close, as [i, j] with i < j. */
export function closeColorPairs(colors: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < colors.length; i++) {
    for (let j = i + 1; j < colors.length; j++) {
      const d = colorDistance(colors[i]!, colors[j]!);
      if (d !== null && d < MIN_COLOR_DISTANCE) out.push([i, j]);
    }
  }
  return out;
}

import "server-only";
import type { Position } from "@/lib/values/polygon";

// The ring's rules are lib/values/polygon.ts; this is how the database stores a checked ring.

/** The corners as PostgreSQL's polygon text: `((lng,lat),(lng,lat),…)`. */
export function polygonText(corners: readonly Position[]): string {
  return `(${corners.map(([lng, lat]) => `(${lng},${lat})`).join(",")})`;
}

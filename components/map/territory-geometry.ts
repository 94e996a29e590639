// Territory shapes between the API's GeoJSON ([longitude, latitude], closed ring) and Leaflet's
// [latitude, longitude] corners; pure functions so the conversions are unit-tested.

/** [latitude, longitude], as Leaflet takes a corner. */
export type LatLngTuple = [number, number];
/** A GeoJSON Polygon of one ring, as GET /api/territories answers and POST takes it. */
export interface TerritoryPolygon {
  type: "Polygon";
  coordinates: [number, number][][];
}

/** Anything Leaflet hands back as a corner: an L.LatLng or a tuple. */
type LatLngLike = { lat: number; lng: number } | readonly [number, number];

const toTuple = (at: LatLngLike): LatLngTuple => ("lat" in at ? [at.lat, at.lng] : [at[0], at[1]]);

const same = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1];

/** The polygon's outer ring as Leaflet corners, the closing repetition left out. */
export function polygonToLatLngs(polygon: TerritoryPolygon): LatLngTuple[] {
  const ring = polygon.coordinates[0] ?? [];
  const open = ring.length > 1 && same(ring[0]!, ring[ring.length - 1]!) ? ring.slice(0, -1) : ring;
  return open.map(([lng, lat]) => [lat, lng]);
}

/**
 * Leaflet's corners as the API's polygon, closed. L.Polygon#getLatLngs() nests the rings
 * (LatLng[][]), a drawn shape may come flat: both are read, the first ring only.
 */
export function latLngsToPolygon(
  latLngs: readonly LatLngLike[] | readonly (readonly LatLngLike[])[],
): TerritoryPolygon {
  const first = latLngs[0];
  // A tuple holds numbers; a ring holds corners.
  const nested = Array.isArray(first) && typeof first[0] !== "number";
  const ring = (nested ? first : latLngs) as readonly LatLngLike[];
  const corners = ring.map(toTuple).map(([lat, lng]): [number, number] => [lng, lat]);
  if (corners.length > 0 && !same(corners[0]!, corners[corners.length - 1]!)) corners.push(corners[0]!);
  return { type: "Polygon", coordinates: [corners] };
}

/** The corners of a polygon (the closing repetition not counted). */
export function cornerCount(polygon: TerritoryPolygon): number {
  return polygonToLatLngs(polygon).length;
}

/** [[south, west], [north, east]] around the polygon; null for an empty one. */
export function polygonBounds(polygon: TerritoryPolygon): [LatLngTuple, LatLngTuple] | null {
  const corners = polygonToLatLngs(polygon);
  if (corners.length === 0) return null;
  const lats = corners.map((c) => c[0]);
  const lngs = corners.map((c) => c[1]);
  return [
    [Math.min(...lats), Math.min(...lngs)],
    [Math.max(...lats), Math.max(...lngs)],
  ];
}

/**
 * Territory colors: 3:1 against light tiles and white text, far apart, seven so 44 px swatches fit
 * a phone's row. Named, since a color alone tells a screen reader nothing.
 */
export const TERRITORY_COLORS = [
  { value: "#2563eb", name: "Blue" },
  { value: "#15803d", name: "Green" },
  { value: "#c2410c", name: "Orange" },
  { value: "#7c3aed", name: "Purple" },
  { value: "#be123c", name: "Rose" },
  { value: "#0f766e", name: "Teal" },
  { value: "#a16207", name: "Ochre" },
] as const;

/** The palette's name of a color, or the color itself for one set through the API. */
export function territoryColorName(color: string): string {
  return TERRITORY_COLORS.find((c) => c.value === color.toLowerCase())?.name ?? color;
}

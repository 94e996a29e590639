import { describe, expect, it } from "vitest";
import { closeColorPairs, contrastRatio, parseHex } from "./pin-colors";
import {
  cornerCount,
  latLngsToPolygon,
  polygonBounds,
  polygonToLatLngs,
  TERRITORY_COLORS,
  territoryColorName,
  type TerritoryPolygon,
} from "./territory-geometry";

const SQUARE: TerritoryPolygon = {
  type: "Polygon",
  coordinates: [
    [
      [-97.8, 30.2],
      [-97.7, 30.2],
      [-97.7, 30.3],
      [-97.8, 30.3],
      [-97.8, 30.2],
    ],
  ],
};

describe("territory geometry", () => {
  it("turns the API's closed [lng, lat] ring into open Leaflet corners", () => {
    expect(polygonToLatLngs(SQUARE)).toEqual([
      [30.2, -97.8],
      [30.2, -97.7],
      [30.3, -97.7],
      [30.3, -97.8],
    ]);
    expect(cornerCount(SQUARE)).toBe(4);
    expect(polygonToLatLngs({ type: "Polygon", coordinates: [] })).toEqual([]);
  });

  it("turns Leaflet corners, nested or flat, tuples or LatLngs, into a closed ring", () => {
    const corners = polygonToLatLngs(SQUARE);
    expect(latLngsToPolygon(corners)).toEqual(SQUARE);
    const nested = [corners.map(([lat, lng]) => ({ lat, lng }))];
    expect(latLngsToPolygon(nested)).toEqual(SQUARE);
    // An already closed ring is not closed twice.
    expect(latLngsToPolygon([...corners, corners[0]!])).toEqual(SQUARE);
  });

  it("bounds a polygon, and nothing for an empty one", () => {
    expect(polygonBounds(SQUARE)).toEqual([
      [30.2, -97.8],
      [30.3, -97.7],
    ]);
    expect(polygonBounds({ type: "Polygon", coordinates: [[]] })).toBeNull();
  });

  it("offers colors that show on the map, carry white text and differ from each other", () => {
    for (const { value } of TERRITORY_COLORS) {
      expect(contrastRatio(parseHex(value)!, [255, 255, 255]), value).toBeGreaterThanOrEqual(4.5);
    }
    expect(closeColorPairs(TERRITORY_COLORS.map((c) => c.value))).toEqual([]);
    expect(territoryColorName("#2563EB")).toBe("Blue");
    expect(territoryColorName("#123456")).toBe("#123456");
  });
});

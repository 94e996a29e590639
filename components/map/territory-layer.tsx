"use client";

import { useEffect, useRef } from "react";
import L from "leaflet";
// Geoman's types (map.pm, layer.pm); the library itself is ./geoman, loaded for editors only.
import type {} from "@geoman-io/leaflet-geoman-free";
import { useMap } from "react-leaflet";
import { escapeHtml } from "@/lib/format";
import type { Territory } from "@/lib/query/territories";
import { latLngsToPolygon, polygonToLatLngs, type TerritoryPolygon } from "./territory-geometry";

// Territories on the map, outlined in their colors; drawing and editing go through Geoman's
// documented API, so users who cannot edit (no Geoman loaded) see outlines only.

export type TerritoryEditMode =
  | { kind: "off" }
  | { kind: "drawing" }
  /** A shape being edited: a drawn one (id undefined) or a saved territory's. */
  | { kind: "shape"; id?: string; key: string; polygon: TerritoryPolygon; color: string };

export interface TerritoryLayerProps {
  territories: readonly Territory[];
  /** The signed-in user's id: their territories are drawn heavier. */
  userId?: string;
  edit: TerritoryEditMode;
  /** A click on a territory's outline (only while the editor's list is open). */
  onPick?: (territory: Territory) => void;
  onDrawn: (polygon: TerritoryPolygon) => void;
  onShapeChange: (polygon: TerritoryPolygon) => void;
  /**
   * A territory to bring into view (the filter's, or the one chosen for editing); the view moves
   * when `key` changes, not when the shape does.
   */
  focus?: { key: string; polygon: TerritoryPolygon } | null;
}

/**
 * Padding that keeps a fitted territory clear of the map's sheet: a panel at the map's left on a
 * wide screen, a bottom sheet on a phone (its corners must stay in reach to be dragged).
 */
function clearOfSheet(map: L.Map): Pick<L.FitBoundsOptions, "paddingTopLeft" | "paddingBottomRight"> {
  const margin = 40;
  const sheet = document.querySelector("[data-map-sheet]")?.getBoundingClientRect();
  const box = map.getContainer().getBoundingClientRect();
  if (!sheet) return { paddingTopLeft: [margin, margin], paddingBottomRight: [margin, margin] };
  const fullWidth = sheet.width >= box.width - 1;
  return fullWidth
    ? {
        paddingTopLeft: [margin, margin],
        paddingBottomRight: [margin, Math.max(margin, box.bottom - sheet.top + margin)],
      }
    : {
        paddingTopLeft: [Math.max(margin, sheet.right - box.left + margin), margin],
        paddingBottomRight: [margin, margin],
      };
}

export function TerritoryLayer({
  territories,
  userId,
  edit,
  onPick,
  onDrawn,
  onShapeChange,
  focus,
}: TerritoryLayerProps) {
  const map = useMap();
  const callbacks = useRef({ onPick, onDrawn, onShapeChange });
  useEffect(() => {
    callbacks.current = { onPick, onDrawn, onShapeChange };
  });

  // Territories are few: drawn as SVG (the pins use a canvas), so each outline is an element with
  // its territory's id, in a pane of its own above the tiles (200) and below the pins (400).
  const rendererRef = useRef<L.SVG | null>(null);
  useEffect(() => {
    if (!map.getPane("territories")) map.createPane("territories").style.zIndex = "350";
    const renderer = L.svg({ pane: "territories" });
    rendererRef.current = renderer;
    return () => {
      renderer.remove();
      rendererRef.current = null;
    };
  }, [map]);

  // The outlines, the one being edited left out.
  const editingId = edit.kind === "shape" ? edit.id : undefined;
  useEffect(() => {
    const renderer = rendererRef.current ?? undefined;
    const layers = territories
      .filter((t) => t.id !== editingId)
      .map((territory) => {
        const own = userId !== undefined && territory.assigned_to.includes(userId);
        const layer = L.polygon(polygonToLatLngs(territory.polygon), {
          renderer,
          color: territory.color,
          weight: own ? 4 : 2,
          opacity: 0.9,
          fillColor: territory.color,
          fillOpacity: own ? 0.12 : 0.06,
          className: own ? "territory-outline territory-own" : "territory-outline",
        });
        layer.bindTooltip(
          `${escapeHtml(territory.name)}${own ? ' <span style="font-weight:400">(yours)</span>' : ""}`,
          { sticky: true, className: "font-semibold" },
        );
        layer.on("click", () => callbacks.current.onPick?.(territory));
        layer.addTo(map);
        // The path's element carries the territory's id, for tests and tools that read the map.
        layer.getElement()?.setAttribute("data-territory-id", territory.id);
        return layer;
      });
    return () => {
      for (const layer of layers) layer.remove();
    };
  }, [map, territories, userId, editingId]);

  // Drawing: Geoman's polygon draw mode, clicked corner by corner, finished on the first corner.
  const drawing = edit.kind === "drawing";
  useEffect(() => {
    if (!drawing) return;
    const created = (e: { layer: L.Layer }) => {
      const polygon = latLngsToPolygon((e.layer as L.Polygon).getLatLngs() as L.LatLng[][]);
      // The form's shape layer replaces Geoman's.
      e.layer.remove();
      callbacks.current.onDrawn(polygon);
    };
    map.on("pm:create", created);
    map.pm.enableDraw("Polygon", {
      snappable: true,
      // The API says why a shape is refused (crossing edges), next to the form's Shape.
      allowSelfIntersection: true,
      tooltips: true,
      templineStyle: { color: "#0f172a" },
      hintlineStyle: { color: "#0f172a", dashArray: [5, 5] },
    });
    return () => {
      map.off("pm:create", created);
      map.pm.disableDraw();
    };
  }, [map, drawing]);

  const editing = edit.kind !== "off";
  useEffect(() => {
    map.getContainer().dataset.territoryEditing = String(editing);
  }, [map, editing]);

  // Geoman's corner markers are focusable buttons without a name (it takes no marker options):
  // each gets one as it is added, so a screen reader says what they are.
  useEffect(() => {
    const pane = map.getPane("markerPane");
    if (!editing || !pane) return;
    const label = () => {
      for (const marker of pane.querySelectorAll<HTMLElement>(".marker-icon:not([aria-label])")) {
        const middle = marker.classList.contains("marker-icon-middle");
        marker.setAttribute(
          "aria-label",
          middle ? "Drag to add a corner here" : "Territory corner: drag to move",
        );
      }
    };
    label();
    const observer = new MutationObserver(label);
    observer.observe(pane, { childList: true });
    return () => observer.disconnect();
  }, [map, editing]);

  // The shape being edited: corners dragged, a corner added by dragging a middle marker.
  const shape = edit.kind === "shape" ? edit : null;
  const shapeKey = shape?.key;
  const shapeColor = shape?.color;
  const shapeRef = useRef(shape);
  useEffect(() => {
    shapeRef.current = shape;
  });
  const draftRef = useRef<L.Polygon | null>(null);
  useEffect(() => {
    const start = shapeRef.current;
    if (!shapeKey || !start) return;
    const layer = L.polygon(polygonToLatLngs(start.polygon), {
      pmIgnore: false,
      renderer: rendererRef.current ?? undefined,
      color: start.color,
      weight: 3,
      dashArray: "6 4",
      fillColor: start.color,
      fillOpacity: 0.15,
      className: "territory-draft",
    }).addTo(map);
    draftRef.current = layer;
    layer.pm.enable({ allowSelfIntersection: true, snappable: true });
    const changed = () =>
      callbacks.current.onShapeChange(latLngsToPolygon(layer.getLatLngs() as L.LatLng[][]));
    layer.on("pm:edit", changed);
    return () => {
      layer.off("pm:edit", changed);
      layer.pm.disable();
      layer.remove();
      draftRef.current = null;
    };
  }, [map, shapeKey]);
  // The color chosen in the form shows on the shape at once.
  useEffect(() => {
    if (shapeColor) draftRef.current?.setStyle({ color: shapeColor, fillColor: shapeColor });
  }, [shapeColor, shapeKey]);

  // Bring a territory into view when it is chosen (not on every change of its shape).
  const focusKey = focus?.key ?? "";
  const focusRef = useRef(focus);
  useEffect(() => {
    focusRef.current = focus;
  });
  useEffect(() => {
    const target = focusRef.current;
    if (!focusKey || !target) return;
    const corners = polygonToLatLngs(target.polygon);
    if (corners.length === 0) return;
    // The sheet opening with the form has its size in the next frame.
    const frame = requestAnimationFrame(() =>
      map.fitBounds(L.latLngBounds(corners), { ...clearOfSheet(map), maxZoom: 16 }),
    );
    return () => cancelAnimationFrame(frame);
  }, [map, focusKey]);

  return null;
}

"use client";

import { useEffect, useRef } from "react";
import L from "leaflet";
import Supercluster from "supercluster";
import { useMap } from "react-leaflet";
import { formatNumber } from "@/lib/format";
import type { Pin } from "@/lib/query/pins";

// Tens of thousands of pins via a supercluster index: each move draws only what the view needs
// (clusters, canvas circles), so the work depends on the screen, not the number of pins.

interface PointProps {
  /** Index into the pins array the index was built from. */
  i: number;
}
/** Pin count per pin type id, summed over a cluster's pins. */
type ClusterCounts = Record<string, number>;

/** Single pins are shown from this zoom on; below it nearby pins are clustered. */
const CLUSTER_MAX_ZOOM = 15;
/** While pages are still arriving, the index is rebuilt at most this often. */
const REBUILD_INTERVAL_MS = 700;

interface Props {
  pins: readonly Pin[];
  /** Color per pin type id (pins carry their type's color too; this wins if the type list knows it). */
  colors: ReadonlyMap<string, string>;
  loading: boolean;
  /** Called with the number of pins in the layer after each rebuild. */
  onRendered: (count: number) => void;
  /** A pin to show (a shared link `?pin=<id>`): the map zooms to it, once. */
  focusPinId?: string;
  /** A click on a single pin (its sheet shows its history). */
  onSelect?: (pin: Pin) => void;
}

/** Single pins are drawn from this zoom on (a cluster's click zooms at most to it). */
export const SINGLE_PIN_ZOOM = CLUSTER_MAX_ZOOM + 1;

export function PinClusterLayer({ pins, colors, loading, onRendered, focusPinId, onSelect }: Props) {
  const map = useMap();
  const stateRef = useRef<{
    index: Supercluster<PointProps, ClusterCounts> | null;
    pins: readonly Pin[];
    group: L.LayerGroup | null;
    renderer: L.Canvas | null;
    lastBuild: number;
    timer: ReturnType<typeof setTimeout> | null;
    /** Redraws the view from the current index; set while the map is mounted. */
    draw: (() => void) | null;
  }>({ index: null, pins: [], group: null, renderer: null, lastBuild: 0, timer: null, draw: null });
  const colorsRef = useRef(colors);
  const onRenderedRef = useRef(onRendered);
  const onSelectRef = useRef(onSelect);
  // The pin last zoomed to: a pin chosen by a click is not zoomed to again.
  const focusedRef = useRef<string | null>(null);
  useEffect(() => {
    colorsRef.current = colors;
    onRenderedRef.current = onRendered;
    onSelectRef.current = onSelect;
  });

  // The layer group and the canvas renderer live as long as the map.
  useEffect(() => {
    const state = stateRef.current;
    state.renderer = L.canvas({ padding: 0.5 });
    state.group = L.layerGroup().addTo(map);

    const colorOf = (pin: Pin) => colorsRef.current.get(pin.pin_type.id) ?? pin.pin_type.color;

    const draw = () => {
      const { index, group, renderer } = state;
      if (!group || !renderer) return;
      group.clearLayers();
      if (!index) return;
      const bounds = map.getBounds().pad(0.2);
      const zoom = Math.round(map.getZoom());
      const west = Math.max(-180, bounds.getWest());
      const east = Math.min(180, bounds.getEast());
      const south = Math.max(-85, bounds.getSouth());
      const north = Math.min(85, bounds.getNorth());
      for (const feature of index.getClusters([west, south, east, north], zoom)) {
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        const props = feature.properties;
        if ("cluster" in props && props.cluster) {
          const marker = L.marker([lat, lng], {
            icon: clusterIcon(props.point_count, props, colorsRef.current),
            keyboard: true,
            title: `${formatNumber(props.point_count)} pins: zoom in`,
          });
          marker.on("click", () => {
            const next = Math.min(index.getClusterExpansionZoom(props.cluster_id), SINGLE_PIN_ZOOM);
            map.setView([lat, lng], next);
          });
          group.addLayer(marker);
        } else {
          const pin = state.pins[(props as PointProps).i];
          if (!pin) continue;
          const circle = L.circleMarker([lat, lng], {
            renderer,
            radius: 7,
            color: "#ffffff",
            weight: 1.5,
            fillColor: colorOf(pin),
            fillOpacity: 0.95,
          });
          circle.on("click", () => {
            focusedRef.current = pin.id;
            onSelectRef.current?.(pin);
          });
          group.addLayer(circle);
        }
      }
    };

    map.on("moveend", draw);
    state.draw = draw;
    return () => {
      map.off("moveend", draw);
      if (state.timer) clearTimeout(state.timer);
      state.group?.remove();
      state.group = null;
      state.renderer = null;
      state.draw = null;
    };
  }, [map]);

  // Rebuild the index when the pins change; throttled while pages keep arriving.
  useEffect(() => {
    const state = stateRef.current;
    const build = () => {
      state.timer = null;
      state.lastBuild = Date.now();
      const index = new Supercluster<PointProps, ClusterCounts>({
        radius: 60,
        maxZoom: CLUSTER_MAX_ZOOM,
        map: (p) => {
          const pin = pins[p.i];
          return pin ? { [pin.pin_type.id]: 1 } : {};
        },
        reduce: (acc, p) => {
          for (const [type, n] of Object.entries(p)) acc[type] = (acc[type] ?? 0) + n;
        },
      });
      index.load(
        pins.map((pin, i) => ({
          type: "Feature" as const,
          properties: { i },
          geometry: { type: "Point" as const, coordinates: [pin.location[1], pin.location[0]] },
        })),
      );
      state.index = index;
      state.pins = pins;
      state.draw?.();
      onRenderedRef.current(pins.length);
    };
    if (state.timer) clearTimeout(state.timer);
    // The first pins draw at once; only rebuilds of a map that already shows pins wait.
    const throttled = loading && state.pins.length > 0;
    const wait = throttled ? Math.max(0, REBUILD_INTERVAL_MS - (Date.now() - state.lastBuild)) : 0;
    state.timer = setTimeout(build, wait);
    return () => {
      if (state.timer) clearTimeout(state.timer);
      state.timer = null;
    };
  }, [pins, loading]);

  // A linked pin: as soon as it is among the loaded pins, zoom to it.
  useEffect(() => {
    if (!focusPinId || focusedRef.current === focusPinId) return;
    const pin = pins.find((p) => p.id === focusPinId);
    if (!pin) return;
    focusedRef.current = focusPinId;
    map.setView([pin.location[0], pin.location[1]], Math.max(map.getZoom(), SINGLE_PIN_ZOOM), {
      animate: false,
    });
  }, [map, pins, focusPinId]);

  return null;
}

/** A ring split by pin type (conic gradient) with the pin count in the middle. */
function clusterIcon(count: number, counts: ClusterCounts, colors: ReadonlyMap<string, string>): L.DivIcon {
  const size = count < 10 ? 28 : count < 100 ? 32 : count < 1000 ? 38 : 44;
  const stops: string[] = [];
  let at = 0;
  for (const [type, n] of Object.entries(counts)) {
    if (typeof n !== "number" || !colors.has(type)) continue;
    const end = at + (n / count) * 100;
    stops.push(`${colors.get(type)} ${at.toFixed(2)}% ${end.toFixed(2)}%`);
    at = end;
  }
  const ring = stops.length > 0 ? `conic-gradient(${stops.join(", ")})` : "#64748b";
  // Short labels so they fit the ring: 1.2k, 15k.
  const label =
    count >= 10_000
      ? `${formatNumber(Math.round(count / 1000))}k`
      : count >= 1000
        ? `${formatNumber(Math.round(count / 100) / 10)}k`
        : formatNumber(count);
  return L.divIcon({
    className: "pin-cluster",
    iconSize: [size, size],
    html:
      `<div style="width:${size}px;height:${size}px;border-radius:9999px;background:${ring};` +
      `display:flex;align-items:center;justify-content:center;box-shadow:0 1px 3px rgb(0 0 0 / 0.35)">` +
      `<span style="width:${size - 10}px;height:${size - 10}px;border-radius:9999px;background:#fff;` +
      `display:flex;align-items:center;justify-content:center;font:600 11px/1 system-ui,sans-serif;color:#0f172a">` +
      `${label}</span></div>`,
  });
}

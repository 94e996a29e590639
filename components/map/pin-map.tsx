"use client";

import "leaflet/dist/leaflet.css";
import { useEffect, useRef, useState } from "react";
import L from "leaflet";
import { MapContainer, TileLayer, useMap } from "react-leaflet";
import { FieldLayer, type FieldLayerProps } from "@/components/map/field-layer";
import { PinClusterLayer } from "@/components/map/pin-cluster-layer";
import { TerritoryLayer, type TerritoryLayerProps } from "@/components/map/territory-layer";
import type { Pin } from "@/lib/query/pins";

// The Leaflet map (browser only: loaded with next/dynamic, ssr: false). Without tiles (no network)
// it keeps a neutral background and the pins still show.

export const DEFAULT_TILE_URL = "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png";
const OSM_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

export interface PinMapProps {
  pins: readonly Pin[];
  colors: ReadonlyMap<string, string>;
  loading: boolean;
  /** Changes when the filters change: the view fits the new set of pins. */
  fitKey: string;
  tileUrl?: string;
  onRendered: (count: number) => void;
  /** A pin to zoom to (`?pin=<id>`); the view is then not fitted to all pins. */
  focusPinId?: string;
  onSelect?: (pin: Pin) => void;
  /** Knocks being logged, pins being moved, knocks waiting to be sent. */
  field?: FieldLayerProps;
  /** Territory outlines, and the territory being drawn or edited. */
  territories?: TerritoryLayerProps;
  /** false: the view is not fitted to the pins by itself (a chosen territory has the view). */
  autoFit?: boolean;
}

export default function PinMap({
  pins,
  colors,
  loading,
  fitKey,
  tileUrl,
  onRendered,
  focusPinId,
  onSelect,
  field,
  territories,
  autoFit = true,
}: PinMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const url = tileUrl || DEFAULT_TILE_URL;
  return (
    <MapContainer
      center={[39.5, -98.35]}
      zoom={4}
      minZoom={2}
      // Half steps let "fit to the pins" fill the view better than whole zoom levels.
      zoomSnap={0.5}
      preferCanvas
      worldCopyJump
      className="h-full w-full"
      // Geoman (territory drawing) takes only what opts in: this map does.
      pmIgnore={false}
      style={{ background: "var(--color-slate-200)" }}
      aria-label="Map of pins"
    >
      <TileLayer
        url={url}
        attribution={url === DEFAULT_TILE_URL ? OSM_ATTRIBUTION : undefined}
        eventHandlers={{ tileerror: () => setTilesFailed(true) }}
      />
      <PinClusterLayer
        pins={pins}
        colors={colors}
        loading={loading}
        onRendered={onRendered}
        focusPinId={focusPinId}
        onSelect={onSelect}
      />
      {territories ? <TerritoryLayer {...territories} /> : null}
      {field ? <FieldLayer {...field} /> : null}
      <FitToPins pins={pins} loading={loading} fitKey={fitKey} auto={!focusPinId && autoFit} />
      <FollowContainerSize />
      {tilesFailed ? (
        <p
          role="status"
          className="pointer-events-none absolute bottom-7 left-2 z-[1000] sm:bottom-2 rounded bg-white/85 px-2 py-0.5 text-xs text-slate-600 shadow-sm"
        >
          No map tiles (offline)
        </p>
      ) : null}
    </MapContainer>
  );
}

/**
 * Leaflet measures its container on a window resize only; the page also resizes it (the filters
 * step aside on a phone while territories are edited), so the map follows the box itself.
 */
function FollowContainerSize() {
  const map = useMap();
  useEffect(() => {
    const observer = new ResizeObserver(() => map.invalidateSize({ animate: false }));
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

function boundsOf(pins: readonly Pin[]): L.LatLngBounds | null {
  if (pins.length === 0) return null;
  let south = 90,
    north = -90,
    west = 180,
    east = -180;
  for (const { location } of pins) {
    const [lat, lng] = location;
    if (lat < south) south = lat;
    if (lat > north) north = lat;
    if (lng < west) west = lng;
    if (lng > east) east = lng;
  }
  return L.latLngBounds([south, west], [north, east]);
}

/**
 * Fits the view to the pins: when the first page of a new filter set arrives, and again when
 * the last page is in — unless the user has moved the map meanwhile. Also draws a "Fit" button.
 */
function FitToPins({
  pins,
  loading,
  fitKey,
  auto,
}: {
  pins: readonly Pin[];
  loading: boolean;
  fitKey: string;
  /** false: only the button fits (a linked pin or a chosen territory has the view). */
  auto: boolean;
}) {
  const map = useMap();
  const track = useRef({ key: "", firstFitDone: false, finalFitDone: false, userMoved: false });
  const buttonRef = useRef<HTMLButtonElement>(null);
  const pinsRef = useRef(pins);
  useEffect(() => {
    pinsRef.current = pins;
  });

  const fit = (animate: boolean) => {
    const bounds = boundsOf(pinsRef.current);
    if (bounds) map.fitBounds(bounds, { padding: [32, 32], maxZoom: 14, animate });
  };

  // A drag, wheel or touch by the user means: leave the view alone.
  useEffect(() => {
    const container = map.getContainer();
    const moved = () => {
      track.current.userMoved = true;
    };
    container.addEventListener("pointerdown", moved);
    container.addEventListener("wheel", moved, { passive: true });
    return () => {
      container.removeEventListener("pointerdown", moved);
      container.removeEventListener("wheel", moved);
    };
  }, [map]);

  useEffect(() => {
    if (buttonRef.current) L.DomEvent.disableClickPropagation(buttonRef.current);
  }, []);

  useEffect(() => {
    const t = track.current;
    if (t.key !== fitKey) {
      track.current = { key: fitKey, firstFitDone: false, finalFitDone: false, userMoved: false };
    }
    const now = track.current;
    if (pins.length === 0) return;
    // A linked pin has the view: closing it later must not refit the map under the user.
    if (!auto) {
      now.firstFitDone = true;
      now.finalFitDone = true;
      return;
    }
    if (!now.firstFitDone) {
      now.firstFitDone = true;
      fit(false);
    }
    if (!loading && !now.finalFitDone) {
      now.finalFitDone = true;
      if (!now.userMoved) fit(true);
    }
    // fit reads the latest pins through a ref
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pins, loading, fitKey, auto]);

  return (
    <button
      ref={buttonRef}
      type="button"
      onClick={(e) => {
        e.stopPropagation();
        fit(true);
      }}
      className="absolute top-[84px] left-[10px] z-[1000] rounded border-2 border-black/20 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500"
      aria-label="Fit the map to the pins"
      title="Fit the map to the pins"
    >
      Fit
    </button>
  );
}

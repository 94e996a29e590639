"use client";

import "leaflet/dist/leaflet.css";
import { useCallback, useEffect, useRef, useState } from "react";
import L from "leaflet";
import { MapContainer, TileLayer, useMap } from "react-leaflet";
import { FieldLayer, type FieldLayerProps } from "@/components/map/field-layer";
import { PinClusterLayer } from "@/components/map/pin-cluster-layer";
import { TerritoryLayer, type TerritoryLayerProps } from "@/components/map/territory-layer";
import { SM_UP } from "@/components/ui/use-media-query";
import type { Pin } from "@/lib/query/pins";
import { MAP_VIEW_KEY } from "@/lib/query/saved-pins";

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

/** "Locate me" shows a neighbourhood: the nearby streets and their pins. */
export const LOCATE_ZOOM = 15;

interface SavedView {
  center: [number, number];
  zoom: number;
}

function readSavedView(): SavedView | null {
  try {
    const raw = JSON.parse(window.localStorage.getItem(MAP_VIEW_KEY) ?? "null") as Partial<SavedView> | null;
    const [lat, lng] = raw?.center ?? [];
    if (typeof lat !== "number" || typeof lng !== "number" || typeof raw?.zoom !== "number") return null;
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || !Number.isFinite(raw.zoom))
      return null;
    return { center: [lat, lng], zoom: raw.zoom };
  } catch {
    // Storage blocked or a damaged value: the map opens as it would the first time.
    return null;
  }
}

/** How the view starts: kept (the last viewed area), locating (the user), or fitted to the pins. */
type Start = "kept" | "locating" | "located" | "fit";

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
  // A linked pin or a chosen territory has the view; otherwise a phone opens on the last viewed
  // area, else on the user (location already allowed), else on all pins. Read at mount (browser
  // only): the page's first render takes the server's wide-screen guess.
  const [phone] = useState(() => !window.matchMedia(SM_UP).matches);
  const [saved] = useState(() => (phone && !focusPinId && autoFit ? readSavedView() : null));
  const [start, setStart] = useState<Start>(() =>
    saved ? "kept" : phone && !focusPinId && autoFit ? "locating" : "fit",
  );
  const [startKey] = useState(fitKey);
  return (
    <MapContainer
      center={saved?.center ?? [39.5, -98.35]}
      zoom={saved?.zoom ?? 4}
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
      <FitToPins
        pins={pins}
        loading={loading}
        fitKey={fitKey}
        auto={!focusPinId && autoFit}
        hold={start === "locating"}
        keep={(start === "kept" || start === "located") && fitKey === startKey}
      />
      <LocateMe auto={start === "locating"} onAutoDone={(located) => setStart(located ? "located" : "fit")} />
      <RememberView ready={start === "kept" || start === "located" || (start === "fit" && pins.length > 0)} />
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

/**
 * Keeps the last viewed area on this device, and publishes the centre and zoom on the map's
 * element (the pins are on a canvas; tests and tools read the view there).
 */
function RememberView({ ready }: { ready: boolean }) {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    const moved = () => {
      const center = map.getCenter().wrap();
      const zoom = map.getZoom();
      container.dataset.center = `${center.lat.toFixed(6)},${center.lng.toFixed(6)}`;
      container.dataset.zoom = String(zoom);
      // Until the start view is decided the map shows a placeholder (the whole country): kept,
      // the next visit would open there and never go to the user or the pins.
      if (!ready) return;
      try {
        window.localStorage.setItem(MAP_VIEW_KEY, JSON.stringify({ center: [center.lat, center.lng], zoom }));
      } catch {
        // Storage full or blocked: the next visit starts on all pins.
      }
    };
    moved();
    map.on("moveend", moved);
    return () => {
      map.off("moveend", moved);
    };
  }, [map, ready]);
  return null;
}

/** Leaflet's own flag (not in its types): a zoom animation is running. */
type ZoomingMap = L.Map & { _animatingZoom?: boolean };

/** What the user is told when the location cannot be had (GeolocationPositionError codes). */
export function locateErrorMessage(code: number | null): string {
  if (code === null) return "This browser cannot share your location.";
  if (code === 1)
    return "Location access is blocked for this site. Allow it in the browser's settings to use Locate me.";
  if (code === 3) return "Finding your location took too long. Try again.";
  return "Your location is not available right now. Try again.";
}

/**
 * "Locate me": centres the map on the user at a neighbourhood's zoom, so nearby pins come first,
 * with a dot and the accuracy circle. `auto` tries it once on its own when the user has already
 * allowed location access (the map opens on the user), never asking for it.
 */
function LocateMe({ auto, onAutoDone }: { auto: boolean; onAutoDone: (located: boolean) => void }) {
  const map = useMap();
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({
    busy: false,
    message: null,
  });
  const buttonRef = useRef<HTMLButtonElement>(null);
  const marks = useRef<L.Layer[]>([]);
  // A position that arrives after the map is gone moves nothing.
  const alive = useRef(true);
  const onAutoDoneRef = useRef(onAutoDone);
  useEffect(() => {
    onAutoDoneRef.current = onAutoDone;
  });

  const locate = useCallback(
    (quiet: boolean) => {
      if (!("geolocation" in navigator)) {
        if (quiet) onAutoDoneRef.current(false);
        else setState({ busy: false, message: locateErrorMessage(null) });
        return;
      }
      setState({ busy: true, message: null });
      navigator.geolocation.getCurrentPosition(
        ({ coords }) => {
          if (!alive.current) return;
          const at: [number, number] = [coords.latitude, coords.longitude];
          for (const mark of marks.current) mark.remove();
          marks.current = [
            L.circle(at, {
              radius: coords.accuracy,
              color: "#2563eb",
              weight: 1,
              fillOpacity: 0.08,
              interactive: false,
            }).addTo(map),
            L.circleMarker(at, {
              radius: 7,
              color: "#ffffff",
              weight: 3,
              fillColor: "#2563eb",
              fillOpacity: 1,
              interactive: false,
            }).addTo(map),
          ];
          const go = () => {
            if (!alive.current) return;
            map.setView(at, Math.max(map.getZoom(), LOCATE_ZOOM), { animate: false });
            setState({ busy: false, message: null });
            if (quiet) onAutoDoneRef.current(true);
          };
          // Leaflet drops a setView while a zoom animates, and a zoom started by a tap just before
          // begins on the next frame: the map goes to the user once that animation is over.
          requestAnimationFrame(() => {
            if ((map as ZoomingMap)._animatingZoom) map.once("zoomend", go);
            else go();
          });
        },
        (error) => {
          setState({ busy: false, message: quiet ? null : locateErrorMessage(error.code) });
          if (quiet) onAutoDoneRef.current(false);
        },
        // A press wants where the user is now, not a position kept from before they walked on.
        { enableHighAccuracy: true, timeout: quiet ? 8_000 : 15_000, maximumAge: quiet ? 60_000 : 0 },
      );
    },
    [map],
  );

  // Opening on the user needs a permission given before: the map never asks on its own.
  const autoTried = useRef(false);
  useEffect(() => {
    if (!auto || autoTried.current) return;
    autoTried.current = true;
    const query = navigator.permissions?.query({ name: "geolocation" });
    if (!query) return onAutoDoneRef.current(false);
    query.then(
      (status) => (status.state === "granted" ? locate(true) : onAutoDoneRef.current(false)),
      () => onAutoDoneRef.current(false),
    );
  }, [auto, locate]);

  useEffect(() => {
    if (buttonRef.current) L.DomEvent.disableClickPropagation(buttonRef.current);
    alive.current = true;
    return () => {
      alive.current = false;
      for (const mark of marks.current) mark.remove();
    };
  }, []);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        onClick={(e) => {
          e.stopPropagation();
          locate(false);
        }}
        disabled={state.busy}
        aria-label="Locate me"
        title="Locate me"
        data-testid="locate-me"
        className="absolute top-[118px] left-[10px] z-[1000] inline-flex size-[34px] items-center justify-center rounded border-2 border-black/20 bg-white text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 disabled:text-slate-400"
      >
        <svg viewBox="0 0 20 20" className="size-5" aria-hidden="true">
          <circle cx="10" cy="10" r="5" stroke="currentColor" strokeWidth="2" fill="none" />
          <circle cx="10" cy="10" r="1.75" fill="currentColor" />
          <path d="M10 1.5v3.5M10 15v3.5M1.5 10H5M15 10h3.5" stroke="currentColor" strokeWidth="2" />
        </svg>
      </button>
      {state.message ? (
        <div
          role="status"
          data-testid="locate-message"
          className="absolute top-[118px] left-14 z-[1000] flex max-w-[min(20rem,calc(100%-4.5rem))] items-start gap-1 rounded-md bg-white px-3 py-2 text-sm text-slate-800 shadow-md ring-1 ring-slate-900/10"
        >
          <span>{state.message}</span>
          <button
            type="button"
            onClick={() => setState({ busy: false, message: null })}
            className="-my-1 -mr-2 inline-flex size-8 shrink-0 items-center justify-center rounded text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            aria-label="Dismiss"
          >
            <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
              <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" fill="none" />
            </svg>
          </button>
        </div>
      ) : null}
    </>
  );
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
  hold,
  keep,
}: {
  pins: readonly Pin[];
  loading: boolean;
  fitKey: string;
  /** false: only the button fits (a linked pin or a chosen territory has the view). */
  auto: boolean;
  /** true: the start of the view is being decided (the user's location is asked for). */
  hold: boolean;
  /** true: the view the map opened on stays (the last viewed area, the user's location). */
  keep: boolean;
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
    if (pins.length === 0 || hold) return;
    // A linked pin has the view: closing it later must not refit the map under the user.
    if (!auto || keep) {
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
  }, [pins, loading, fitKey, auto, hold, keep]);

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

"use client";

import { useCallback, useState } from "react";
import type { PendingKnock } from "@/lib/query/pin-outbox";

// What the field team is doing on the map (logging a knock, viewing or moving a pin), shared by
// the layer inside Leaflet and the sheet outside it.

export type LatLng = [number, number];

export type FieldMode =
  | { kind: "idle" }
  /** Asking the browser for the device's location. */
  | { kind: "locating" }
  /**
   * A knock being logged: where (null until found or tapped), how the place was chosen, why the
   * location could not be used, and a pending knock being fixed.
   */
  | {
      kind: "knock";
      location: LatLng | null;
      source: "device" | "tap";
      accuracy?: number;
      locationError?: string;
      fixing?: PendingKnock;
    }
  /** A pin dragged to a new place, waiting for the user to confirm. */
  | { kind: "moving"; pinId: string; from: LatLng; to: LatLng | null };

/** The message for a geolocation failure (GeolocationPositionError codes). */
export function locationErrorMessage(error: { code: number } | null): string {
  if (!error) return "This device cannot share its location. Tap the map where the door is.";
  if (error.code === 1)
    return "Location access is blocked for this site. Allow it in the browser's settings, or tap the map where the door is.";
  if (error.code === 3)
    return "Finding your location took too long. Try again, or tap the map where the door is.";
  return "Your location is not available right now. Try again, or tap the map where the door is.";
}

export function useFieldMap() {
  const [mode, setMode] = useState<FieldMode>({ kind: "idle" });

  /** "Log knock": the device's location when the browser gives it, else a tap on the map. */
  const startKnock = useCallback(() => {
    if (typeof navigator === "undefined" || !navigator.geolocation) {
      setMode({ kind: "knock", location: null, source: "tap", locationError: locationErrorMessage(null) });
      return;
    }
    setMode({ kind: "locating" });
    navigator.geolocation.getCurrentPosition(
      (position) =>
        setMode((current) =>
          current.kind === "locating"
            ? {
                kind: "knock",
                location: [position.coords.latitude, position.coords.longitude],
                source: "device",
                accuracy: position.coords.accuracy,
              }
            : current,
        ),
      (error) =>
        setMode((current) =>
          current.kind === "locating"
            ? { kind: "knock", location: null, source: "tap", locationError: locationErrorMessage(error) }
            : current,
        ),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 30_000 },
    );
  }, []);

  /** "Tap the map instead": a knock without the device's location. */
  const tapInstead = useCallback(
    () =>
      setMode((current) => ({
        kind: "knock",
        location: null,
        source: "tap",
        fixing: current.kind === "knock" ? current.fixing : undefined,
      })),
    [],
  );

  /** A tap on the map: places the knock being logged, or a pin being moved. */
  const tapMap = useCallback(
    (at: LatLng) =>
      setMode((current) =>
        current.kind === "knock" || current.kind === "locating"
          ? {
              kind: "knock",
              location: at,
              source: "tap",
              fixing: current.kind === "knock" ? current.fixing : undefined,
            }
          : current.kind === "moving"
            ? { ...current, to: at }
            : current,
      ),
    [],
  );

  const fixKnock = useCallback(
    (knock: PendingKnock) =>
      setMode({ kind: "knock", location: knock.location, source: "tap", fixing: knock }),
    [],
  );
  const startMove = useCallback(
    (pinId: string, from: LatLng) => setMode({ kind: "moving", pinId, from, to: null }),
    [],
  );
  const cancel = useCallback(() => setMode({ kind: "idle" }), []);

  return { mode, startKnock, tapInstead, tapMap, fixKnock, startMove, cancel };
}

export type FieldMap = ReturnType<typeof useFieldMap>;

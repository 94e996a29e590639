"use client";

import { useEffect, useRef } from "react";
import L from "leaflet";
import { useMap } from "react-leaflet";
import type { PendingKnock } from "@/lib/query/pin-outbox";
import type { FieldMode, LatLng } from "./use-field-map";

// The field team's marks above the pins. Map taps only place a knock or a moved pin, so no pin is
// dropped by accident.

export interface FieldLayerProps {
  mode: FieldMode;
  onTap: (at: LatLng) => void;
  /** The selected pin's place, ringed. */
  selected: LatLng | null;
  pending: readonly PendingKnock[];
  colors: ReadonlyMap<string, string>;
  onPendingClick: (knock: PendingKnock) => void;
}

/** Zoom a knock at the device's location is shown at: a few houses across. */
const DOOR_ZOOM = 18;

function dropIcon(kind: "knock" | "move"): L.DivIcon {
  const color = kind === "knock" ? "#1d4ed8" : "#c2410c";
  return L.divIcon({
    className: `field-drop field-drop-${kind}`,
    iconSize: [30, 30],
    iconAnchor: [15, 34],
    html:
      `<div style="width:30px;height:30px;border-radius:50% 50% 50% 0;transform:rotate(-45deg);` +
      `background:${color};border:3px solid #fff;box-shadow:0 2px 6px rgb(0 0 0 / .45)"></div>`,
  });
}

function pendingIcon(knock: PendingKnock, color: string): L.DivIcon {
  return L.divIcon({
    className: "pending-knock",
    iconSize: [22, 22],
    html:
      `<div data-client-id="${knock.client_id}" title="Waiting to be sent" style="width:22px;height:22px;` +
      `border-radius:9999px;border:3px dashed #0f172a;background:${color};opacity:.85"></div>`,
  });
}

/**
 * On a phone the sheet covers the lower part of the map: once it has its size, a point under it
 * is panned to the middle of what stays visible above it.
 */
function revealAboveSheet(map: L.Map, at: LatLng) {
  requestAnimationFrame(() => {
    const sheet = document.querySelector("[data-map-sheet]");
    if (!sheet) return;
    const box = map.getContainer().getBoundingClientRect();
    const top = sheet.getBoundingClientRect().top - box.top;
    // Side panel (wide screens): nothing covers the map's lower part.
    if (top >= box.height - 1 || sheet.getBoundingClientRect().width < box.width - 1) return;
    const point = map.latLngToContainerPoint(at);
    // Already in sight above the sheet: the map stays where the user put it.
    if (point.y >= 24 && point.y <= top - 36) return;
    map.panBy([0, point.y - Math.max(top / 2, 24)], { animate: false });
  });
}

export function FieldLayer({ mode, onTap, selected, pending, colors, onPendingClick }: FieldLayerProps) {
  const map = useMap();
  const modeRef = useRef(mode);
  const onTapRef = useRef(onTap);
  const onPendingRef = useRef(onPendingClick);
  useEffect(() => {
    modeRef.current = mode;
    onTapRef.current = onTap;
    onPendingRef.current = onPendingClick;
  });

  // Taps place a knock or a moved pin, only while one is being placed.
  useEffect(() => {
    const click = (e: L.LeafletMouseEvent) => {
      const kind = modeRef.current.kind;
      if (kind === "knock" || kind === "locating" || kind === "moving")
        onTapRef.current([e.latlng.lat, e.latlng.lng]);
    };
    map.on("click", click);
    return () => {
      map.off("click", click);
    };
  }, [map]);

  const placing = mode.kind === "knock" || mode.kind === "locating" || mode.kind === "moving";
  useEffect(() => {
    const container = map.getContainer();
    container.style.cursor = placing ? "crosshair" : "";
    container.dataset.placing = String(placing);
  }, [map, placing]);

  // The knock being logged, or the pin being moved: a draggable drop marker.
  const drop =
    mode.kind === "knock" && mode.location
      ? { at: mode.location, kind: "knock" as const }
      : mode.kind === "moving"
        ? { at: mode.to ?? mode.from, kind: "move" as const }
        : null;
  const dropLat = drop?.at[0];
  const dropLng = drop?.at[1];
  const dropKind = drop?.kind;
  useEffect(() => {
    if (dropLat === undefined || dropLng === undefined || !dropKind) return;
    const marker = L.marker([dropLat, dropLng], {
      icon: dropIcon(dropKind),
      draggable: true,
      autoPan: true,
      keyboard: false,
      zIndexOffset: 1000,
    }).addTo(map);
    marker.on("dragend", () => {
      const at = marker.getLatLng();
      onTapRef.current([at.lat, at.lng]);
    });
    revealAboveSheet(map, [dropLat, dropLng]);
    return () => {
      marker.remove();
    };
  }, [map, dropLat, dropLng, dropKind]);

  // The device's location: zoom in on it with its accuracy circle.
  const device = mode.kind === "knock" && mode.source === "device" && mode.location ? mode : null;
  const deviceLat = device?.location?.[0];
  const deviceLng = device?.location?.[1];
  const accuracy = device?.accuracy;
  useEffect(() => {
    if (deviceLat === undefined || deviceLng === undefined) return;
    map.setView([deviceLat, deviceLng], Math.max(map.getZoom(), DOOR_ZOOM), { animate: false });
    if (!accuracy) return;
    const circle = L.circle([deviceLat, deviceLng], {
      radius: accuracy,
      color: "#1d4ed8",
      weight: 1,
      fillOpacity: 0.08,
      interactive: false,
    }).addTo(map);
    return () => {
      circle.remove();
    };
  }, [map, deviceLat, deviceLng, accuracy]);

  // A pin about to be moved: bring it into view.
  const moveFrom = mode.kind === "moving" ? mode.from : null;
  const moveLat = moveFrom?.[0];
  const moveLng = moveFrom?.[1];
  useEffect(() => {
    if (moveLat === undefined || moveLng === undefined) return;
    map.setView([moveLat, moveLng], Math.max(map.getZoom(), DOOR_ZOOM), { animate: false });
  }, [map, moveLat, moveLng]);

  const selectedLat = selected?.[0];
  const selectedLng = selected?.[1];
  useEffect(() => {
    if (selectedLat === undefined || selectedLng === undefined) return;
    revealAboveSheet(map, [selectedLat, selectedLng]);
    const ring = L.circleMarker([selectedLat, selectedLng], {
      radius: 12,
      color: "#1d4ed8",
      weight: 3,
      fill: false,
      interactive: false,
    }).addTo(map);
    return () => {
      ring.remove();
    };
  }, [map, selectedLat, selectedLng]);

  useEffect(() => {
    const markers = pending.map((knock) =>
      L.marker(knock.location, {
        icon: pendingIcon(knock, colors.get(knock.pin_type_id) ?? "#64748b"),
        keyboard: false,
        zIndexOffset: 500,
      })
        .on("click", (e) => {
          L.DomEvent.stopPropagation(e);
          onPendingRef.current(knock);
        })
        .addTo(map),
    );
    return () => {
      for (const marker of markers) marker.remove();
    };
  }, [map, pending, colors]);

  return null;
}

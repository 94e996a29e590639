"use client";

import "leaflet/dist/leaflet.css";
import { CircleMarker, MapContainer, TileLayer } from "react-leaflet";
import { DEFAULT_TILE_URL } from "@/components/map/pin-map";
import type { FieldPin } from "@/lib/query/pin-knocks";

/** A small map of a few pins (a lead's door), centered on the first (browser only, like PinMap). */
export default function SmallPinMap({ pins, tileUrl }: { pins: readonly FieldPin[]; tileUrl?: string }) {
  const first = pins[0];
  if (!first) return null;
  return (
    <MapContainer
      center={[first.location[0], first.location[1]]}
      zoom={17}
      scrollWheelZoom={false}
      className="h-full w-full"
      style={{ background: "var(--color-slate-200)" }}
      aria-label="Map of the lead's pin"
    >
      <TileLayer url={tileUrl || DEFAULT_TILE_URL} />
      {pins.map((pin) => (
        <CircleMarker
          key={pin.id}
          center={[pin.location[0], pin.location[1]]}
          radius={9}
          pathOptions={{ color: "#ffffff", weight: 2, fillColor: pin.pin_type.color, fillOpacity: 0.95 }}
        />
      ))}
    </MapContainer>
  );
}

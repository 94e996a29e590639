import type { Metadata } from "next";
import { Suspense } from "react";
import { MapView } from "@/components/map/map-view";
import { publicEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Map" };

export default function MapPage() {
  return (
    <div className="flex h-[calc(100dvh-7rem)] min-h-[560px] flex-col gap-3">
      <h1 className="text-xl font-semibold text-slate-900">Map</h1>
      {/* The view state lives in the URL (useSearchParams): rendered in the browser. */}
      <Suspense fallback={<div className="flex-1 animate-pulse rounded-lg bg-slate-200" />}>
        <MapView tileUrl={publicEnv.tileUrl} />
      </Suspense>
    </div>
  );
}

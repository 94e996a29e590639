import type { Metadata } from "next";
import { Suspense } from "react";
import { MapView } from "@/components/map/map-view";
import { SavedPinsNote } from "@/components/pwa/saved-pins-note";
import { ServiceWorker } from "@/components/pwa/service-worker";
import { PageHeader } from "@/components/shell/page-header";
import { publicEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Map" };

export default function MapPage() {
  return (
    // The map fills the screen below the app bar: on a phone edge to edge (the page's padding is
    // taken back, the title is for screen readers), on a wider screen below the page's header.
    <div className="-mx-4 -my-6 flex h-[calc(100dvh-4rem)] flex-col sm:mx-0 sm:my-0 sm:h-[calc(100dvh-7rem)] sm:min-h-[34rem] lg:h-[calc(100dvh-8rem)]">
      <div className="max-sm:sr-only">
        <PageHeader title="Map" description="Pins dropped by the field team, colored by pin type." />
      </div>
      {/* The field app's service worker: this page and its code load offline after one visit. */}
      <ServiceWorker />
      <SavedPinsNote />
      {/* The view state lives in the URL (useSearchParams): rendered in the browser. */}
      <Suspense fallback={<div className="flex-1 animate-pulse rounded-lg bg-slate-200" />}>
        <MapView tileUrl={publicEnv.tileUrl} />
      </Suspense>
    </div>
  );
}

"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";
import { useLeadPins } from "@/lib/query/pin-knocks";
import { useCan } from "@/lib/query/session";

// Leaflet touches `window` on import: the map is rendered in the browser only.
const SmallPinMap = dynamic(() => import("@/components/map/small-pin-map"), {
  ssr: false,
  loading: () => <div className="h-full w-full animate-pulse bg-slate-200" aria-hidden="true" />,
});

/** The door a lead came from (its linked pin, GET /pins?lead_id=) on a small map; nothing without one. */
export function LeadPinMap({ leadId, tileUrl }: { leadId: string; tileUrl?: string }) {
  const canRead = useCan("pins:read");
  if (!canRead) return null;
  return <LeadPinMapCard leadId={leadId} tileUrl={tileUrl} />;
}

function LeadPinMapCard({ leadId, tileUrl }: { leadId: string; tileUrl?: string }) {
  const pins = useLeadPins(leadId);
  const first = pins.data?.[0];
  if (!first) return null;
  return (
    <Card aria-labelledby="lead-pin-heading" className="mt-4" data-testid="lead-pin-map">
      <CardHeader
        id="lead-pin-heading"
        title="Door on the map"
        description={`${first.pin_type.label}, knocked by ${first.created_by.name || first.created_by.email} on ${formatDateTime(first.created_at)}.`}
      />
      <CardBody className="space-y-2">
        <div className="isolate h-56 overflow-hidden rounded-md ring-1 ring-slate-900/10">
          <SmallPinMap pins={pins.data ?? []} tileUrl={tileUrl} />
        </div>
        <Link
          href={`/map?pin=${encodeURIComponent(first.id)}`}
          className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          Open on the map
        </Link>
      </CardBody>
    </Card>
  );
}

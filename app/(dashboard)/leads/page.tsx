import type { Metadata } from "next";
import { Suspense } from "react";
import { LeadsView } from "@/components/leads/leads-view";
import { LoadingBlock } from "@/components/ui";

export const metadata: Metadata = { title: "Leads" };

// The view reads its state from the URL (useSearchParams), hence the Suspense boundary.
export default function LeadsPage() {
  return (
    <Suspense fallback={<LoadingBlock label="Loading leads" />}>
      <LeadsView />
    </Suspense>
  );
}

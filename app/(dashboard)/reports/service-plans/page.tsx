import type { Metadata } from "next";
import { Suspense } from "react";
import { ServicePlansReport } from "@/components/reports/service-plans-report";
import { LoadingBlock } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Service plans" };

export default function ServicePlansReportPage() {
  return (
    // The view state lives in the URL (useSearchParams).
    <Suspense fallback={<LoadingBlock label="Loading report" />}>
      <ServicePlansReport />
    </Suspense>
  );
}

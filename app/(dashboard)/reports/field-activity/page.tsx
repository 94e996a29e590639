import type { Metadata } from "next";
import { Suspense } from "react";
import { FieldActivityReportView } from "@/components/reports/field-activity-report";
import { LoadingBlock } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Knock to cash" };

export default function FieldActivityReportPage() {
  return (
    // The view state lives in the URL (useSearchParams).
    <Suspense fallback={<LoadingBlock label="Loading report" />}>
      <FieldActivityReportView />
    </Suspense>
  );
}

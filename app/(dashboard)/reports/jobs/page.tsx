import type { Metadata } from "next";
import { Suspense } from "react";
import { JobsReport } from "@/components/reports/jobs-report";
import { LoadingBlock } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Jobs" };

export default function JobsReportPage() {
  return (
    // The view state lives in the URL (useSearchParams).
    <Suspense fallback={<LoadingBlock label="Loading report" />}>
      <JobsReport />
    </Suspense>
  );
}

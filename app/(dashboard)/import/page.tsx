import type { Metadata } from "next";
import { Suspense } from "react";
import { ImportView } from "@/components/imports/import-view";
import { LoadingBlock } from "@/components/ui";

export const metadata: Metadata = { title: "Import" };

// The view keeps the import it shows in the URL (useSearchParams), hence the Suspense boundary.
export default function ImportPage() {
  return (
    <Suspense fallback={<LoadingBlock label="Loading the import" />}>
      <ImportView />
    </Suspense>
  );
}

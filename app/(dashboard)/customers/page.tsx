import type { Metadata } from "next";
import { Suspense } from "react";
import { CustomersView } from "@/components/customers/customers-view";
import { LoadingBlock } from "@/components/ui";

export const metadata: Metadata = { title: "Customers" };

// The view reads its state from the URL (useSearchParams), hence the Suspense boundary.
export default function CustomersPage() {
  return (
    <Suspense fallback={<LoadingBlock label="Loading customers" />}>
      <CustomersView />
    </Suspense>
  );
}

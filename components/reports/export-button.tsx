"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { downloadCsv, type CsvExportRequest } from "@/lib/query/reports";

/** "Export CSV": every row of the filtered set (not just the page), from the export endpoint. */
export function ExportButton(props: CsvExportRequest) {
  const [busy, setBusy] = useState(false);
  const { notify } = useToast();
  return (
    <Button
      variant="secondary"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadCsv(props);
        } catch (error) {
          notify({ title: "Export failed", description: (error as Error).message, tone: "danger" });
        } finally {
          setBusy(false);
        }
      }}
    >
      <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
        <path
          d="M10 3v10m0 0l-4-4m4 4l4-4M4 15v2h12v-2"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
        />
      </svg>
      Export CSV
    </Button>
  );
}

import "server-only";
import type { CsvExport } from "@/lib/domain/reports/csv";

/** The HTTP framing of an export: a CSV attachment with its dated file name. */
export function csvAttachment(csv: CsvExport): Response {
  return new Response(csv.stream, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${csv.filename}"`,
    },
  });
}

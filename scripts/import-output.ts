import type { ImportCounts } from "@/lib/import";

/** The per-section lines that db:import and db:seed print. */
export function formatCounts(counts: ImportCounts): string[] {
  const lines: string[] = [];
  for (const [section, c] of Object.entries(counts)) {
    if (typeof c === "number") {
      if (c > 0) lines.push(`  job visits, crew, line items, payments: ${c} written`);
    } else if (c.total > 0) {
      lines.push(
        `  ${section}: ${c.total} (${c.inserted} new, ${c.updated} updated, ${c.unchanged} unchanged)`,
      );
    }
  }
  return lines;
}

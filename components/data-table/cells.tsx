import { Badge } from "@/components/ui/badge";

/**
 * Small cell renderers shared by the tables: the same dash for "no value" and the same tag
 * chips everywhere.
 */
export function EmptyCell() {
  return (
    <span className="text-slate-400" aria-label="none">
      —
    </span>
  );
}

export function TagList({
  tags,
  label = "Tags",
  className = "max-w-56",
}: {
  tags: readonly string[];
  /** The list's accessible name. */
  label?: string;
  /** Width limits; by default narrow enough for a table cell. */
  className?: string;
}) {
  if (tags.length === 0) return <EmptyCell />;
  return (
    <ul aria-label={label} className={`flex flex-wrap gap-1 ${className}`}>
      {tags.map((tag) => (
        <li key={tag}>
          <Badge tone="brand">{tag}</Badge>
        </li>
      ))}
    </ul>
  );
}

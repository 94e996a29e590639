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

export function TagList({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return <EmptyCell />;
  return (
    <span className="flex max-w-56 flex-wrap gap-1">
      {tags.map((tag) => (
        <Badge key={tag} tone="brand">
          {tag}
        </Badge>
      ))}
    </span>
  );
}

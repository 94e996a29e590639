import { cn } from "./cn";

export interface EmptyStateProps {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** A button or link (e.g. "New lead", "Clear filters"). */
  action?: React.ReactNode;
  /** An icon above the title (decorative). */
  icon?: React.ReactNode;
  className?: string;
}

/** What a list shows when it has nothing to show. */
export function EmptyState({ title, description, action, icon, className }: EmptyStateProps) {
  return (
    <div className={cn("flex flex-col items-center justify-center px-6 py-12 text-center", className)}>
      {icon ? (
        <div
          className="mb-3 flex size-11 items-center justify-center rounded-full bg-slate-100 text-slate-500"
          aria-hidden="true"
        >
          {icon}
        </div>
      ) : null}
      <p className="text-sm font-semibold text-slate-900">{title}</p>
      {description ? <p className="mt-1 max-w-sm text-sm text-slate-500">{description}</p> : null}
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}

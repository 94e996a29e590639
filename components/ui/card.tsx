import { cn } from "./cn";

/** A white panel with a border; use CardHeader and CardBody inside, or any content. */
export interface CardProps extends React.HTMLAttributes<HTMLElement> {
  /** "section" (default; give it aria-labelledby) or "div". */
  as?: "section" | "div";
}

export function Card({ as: Tag = "section", className, ...props }: CardProps) {
  return (
    <Tag className={cn("rounded-xl border border-slate-200 bg-white shadow-xs", className)} {...props} />
  );
}

export interface CardHeaderProps {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Buttons on the right (wrap below the title on phones). */
  actions?: React.ReactNode;
  /** The heading level (default h2). */
  level?: 2 | 3;
  id?: string;
  className?: string;
}

export function CardHeader({ title, description, actions, level = 2, id, className }: CardHeaderProps) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <div
      className={cn(
        "flex flex-col gap-3 border-b border-slate-100 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5",
        className,
      )}
    >
      <div className="min-w-0">
        <Heading id={id} className="text-base font-semibold text-slate-900">
          {title}
        </Heading>
        {description ? <p className="mt-0.5 text-sm text-slate-500">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

export function CardBody({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("px-4 py-4 sm:px-5", className)} {...props} />;
}

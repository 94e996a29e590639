import Link from "next/link";

export interface PageHeaderProps {
  /** The page's h1. */
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Buttons on the right (below the title on phones). */
  actions?: React.ReactNode;
  /** A "back" link above the title (e.g. { href: "/leads", label: "Leads" }). */
  back?: { href: string; label: string };
}

/** The top of every dashboard page: title, short description and the page's main actions. */
export function PageHeader({ title, description, actions, back }: PageHeaderProps) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        {back ? (
          <Link
            href={back.href}
            className="mb-2 inline-flex items-center gap-1 rounded text-sm font-medium text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <span aria-hidden="true">←</span> {back.label}
          </Link>
        ) : null}
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 [overflow-wrap:anywhere]">
          {title}
        </h1>
        {description ? (
          <p className="mt-1 text-sm text-slate-500 [overflow-wrap:anywhere]">{description}</p>
        ) : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

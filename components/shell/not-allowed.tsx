import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

export interface NotAllowedProps {
  /** What the user tried to open, e.g. "Settings". */
  what: string;
  /** Who may, e.g. "administrators". */
  who?: string;
}

/** What a page shows to a role that may not use it (the API answers 403 anyway). */
export function NotAllowed({ what, who }: NotAllowedProps) {
  return (
    <div className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white px-6 py-12 text-center shadow-xs">
      <div
        className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-600"
        aria-hidden="true"
      >
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.6} className="size-6">
          <path
            strokeLinecap="round"
            strokeLinejoin="round"
            d="M16.5 10.5V6.75a4.5 4.5 0 1 0-9 0v3.75m-.75 11.25h10.5a2.25 2.25 0 0 0 2.25-2.25v-6.75a2.25 2.25 0 0 0-2.25-2.25H6.75a2.25 2.25 0 0 0-2.25 2.25v6.75a2.25 2.25 0 0 0 2.25 2.25Z"
          />
        </svg>
      </div>
      <h1 className="text-lg font-semibold text-slate-900">Not allowed</h1>
      <p className="mt-2 text-sm text-slate-600">
        Your role cannot use {what}
        {who ? `; only ${who} can` : ""}. Ask an administrator if you need access.
      </p>
      <Link href="/" className={buttonClasses("secondary", "md", "mt-6")}>
        Go to your start page
      </Link>
    </div>
  );
}

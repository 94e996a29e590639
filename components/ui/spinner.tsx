import { cn } from "./cn";

export interface SpinnerProps {
  /** Announced to screen readers; "" for a purely decorative spinner (e.g. inside a busy button). */
  label?: string;
  size?: "sm" | "md" | "lg";
  className?: string;
}

const SIZES = { sm: "size-4", md: "size-5", lg: "size-8" };

/** A spinning circle; with a label it is a polite status region. */
export function Spinner({ label = "Loading", size = "md", className }: SpinnerProps) {
  const circle = (
    <svg
      className={cn("animate-spin text-current", SIZES[size], className)}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="3" className="opacity-20" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
  if (!label) return circle;
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-500">
      {circle}
      <span>{label}</span>
    </span>
  );
}

/** A centered spinner for a whole panel or page while it loads. */
export function LoadingBlock({ label = "Loading" }: { label?: string }) {
  return (
    <div className="flex min-h-40 items-center justify-center p-8">
      <Spinner label={label} />
    </div>
  );
}

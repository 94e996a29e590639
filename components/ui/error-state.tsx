"use client";

import { ApiClientError } from "@/lib/query/api-client";
import { Button } from "./button";
import { cn } from "./cn";

export interface ErrorStateProps {
  /** The error to explain (an ApiClientError's message is shown as is). */
  error?: unknown;
  title?: React.ReactNode;
  /** Shows a "Try again" button. */
  onRetry?: () => void;
  className?: string;
}

/** The message of any error, for people: API errors say what went wrong; others get a generic text. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiClientError) return error.message;
  return "Something went wrong. Please try again.";
}

/** A panel-sized error with an optional retry. Announced to screen readers (role="alert"). */
export function ErrorState({ error, title = "Could not load this", onRetry, className }: ErrorStateProps) {
  return (
    <div
      role="alert"
      className={cn("flex flex-col items-center justify-center px-6 py-12 text-center", className)}
    >
      <div
        className="mb-3 flex size-11 items-center justify-center rounded-full bg-red-50 text-red-600"
        aria-hidden="true"
      >
        <svg viewBox="0 0 20 20" fill="currentColor" className="size-5">
          <path
            fillRule="evenodd"
            d="M8.49 2.5c.67-1.16 2.35-1.16 3.02 0l6.28 10.88c.67 1.16-.17 2.62-1.51 2.62H3.72c-1.34 0-2.18-1.46-1.51-2.62L8.49 2.5ZM10 6a.75.75 0 0 1 .75.75v3.5a.75.75 0 0 1-1.5 0v-3.5A.75.75 0 0 1 10 6Zm0 8a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z"
            clipRule="evenodd"
          />
        </svg>
      </div>
      <p className="text-sm font-semibold text-slate-900">{title}</p>
      {error !== undefined ? (
        <p className="mt-1 max-w-md text-sm text-slate-600">{errorMessage(error)}</p>
      ) : null}
      {onRetry ? (
        <Button variant="secondary" size="sm" className="mt-4" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

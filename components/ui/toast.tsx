"use client";

import { createContext, useCallback, useContext, useMemo, useRef, useState } from "react";
import { cn } from "./cn";

export type ToastTone = "success" | "danger" | "info";

export interface ToastInput {
  title: string;
  description?: string;
  tone?: ToastTone;
  /** One button beside the text (e.g. Undo); a click runs it and dismisses the toast. */
  action?: { label: string; onClick: () => void };
  /** How long the toast stays (default 5 s, 8 s for errors). */
  durationMs?: number;
}

interface Toast extends ToastInput {
  id: number;
}

const ToastContext = createContext<{ notify: (toast: ToastInput) => void } | null>(null);

const TONES: Record<ToastTone, string> = {
  success: "border-l-emerald-500",
  danger: "border-l-red-500",
  info: "border-l-brand-500",
};

/**
 * Short-lived notices ("Lead created"). Wrap the app once (lib/query/providers.tsx does); call
 * `useToast().notify({ title, tone })`. The region is aria-live so screen readers hear them.
 */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const notify = useCallback(
    (toast: ToastInput) => {
      const id = nextId.current++;
      setToasts((list) => [...list.slice(-3), { ...toast, id }]);
      setTimeout(() => dismiss(id), toast.durationMs ?? (toast.tone === "danger" ? 8000 : 5000));
    },
    [dismiss],
  );
  const value = useMemo(() => ({ notify }), [notify]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div
        aria-live="polite"
        aria-label="Notifications"
        role="region"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={cn(
              "pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border border-l-4 border-slate-200 bg-white px-4 py-3 shadow-lg",
              TONES[toast.tone ?? "success"],
            )}
          >
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-medium text-slate-900">{toast.title}</p>
              {toast.description ? <p className="mt-0.5 text-slate-600">{toast.description}</p> : null}
            </div>
            {toast.action ? (
              <button
                type="button"
                onClick={() => {
                  dismiss(toast.id);
                  toast.action!.onClick();
                }}
                className="rounded px-2 py-0.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                {toast.action.label}
              </button>
            ) : null}
            <button
              type="button"
              onClick={() => dismiss(toast.id)}
              className="rounded p-0.5 text-slate-400 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
              aria-label="Dismiss notification"
            >
              <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
                <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
              </svg>
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** `notify({ title, description?, tone? })`; outside a ToastProvider it does nothing. */
export function useToast(): { notify: (toast: ToastInput) => void } {
  return useContext(ToastContext) ?? { notify: () => {} };
}

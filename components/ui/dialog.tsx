"use client";

import { createContext, useCallback, useContext, useEffect, useId, useRef } from "react";
import { cn } from "./cn";

export interface DialogProps {
  open: boolean;
  /** Called on Esc, the close button, or a click on the backdrop (once its content's close guard, if any, agrees). */
  onClose: () => void;
  title: React.ReactNode;
  description?: React.ReactNode;
  children?: React.ReactNode;
  /** Buttons row at the bottom (right-aligned). */
  footer?: React.ReactNode;
  size?: "sm" | "md" | "lg" | "xl";
  /** Whether a backdrop click closes the dialog (default true; off for dialogs showing a secret). */
  dismissable?: boolean;
  /** "alertdialog" for a question that interrupts (e.g. "Discard changes?"). */
  role?: "dialog" | "alertdialog";
}

/** Decides whether a close the user asked for happens: calls `close` now, later, or never. */
export type DialogCloseGuard = (close: () => void) => void;

const CloseGuardContext = createContext<((guard: DialogCloseGuard | null) => void) | null>(null);

/**
 * Lets content of a dialog (a form with unsaved changes) step in when the user closes the dialog
 * (Esc, the close button, the backdrop). No effect outside a dialog.
 */
export function useDialogCloseGuard(guard: DialogCloseGuard) {
  const register = useContext(CloseGuardContext);
  useEffect(() => {
    if (!register) return;
    register(guard);
    return () => register(null);
  }, [register, guard]);
}

const SIZES = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-2xl", xl: "max-w-4xl" };

/**
 * A modal on the native <dialog>: showModal() makes the page inert, Esc closes and focus returns
 * to the opener. The first focusable (or data-autofocus) element gets focus.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = "md",
  dismissable = true,
  role,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const guard = useRef<DialogCloseGuard | null>(null);
  const registerGuard = useCallback((next: DialogCloseGuard | null) => {
    guard.current = next;
  }, []);
  const requestClose = () => (guard.current ? guard.current(onClose) : onClose());

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first focusable element (the close button); React's autoFocus ran
      // before the dialog was shown, so a control that should start focused says data-autofocus.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        // Esc: let React state decide (the effect closes the element).
        event.preventDefault();
        // React passes a nested dialog's cancel up its tree: that Esc was for the inner one.
        if (event.target === ref.current) requestClose();
      }}
      onClick={(event) => {
        if (dismissable && event.target === ref.current) requestClose();
      }}
      className={cn(
        "m-auto w-[calc(100%-2rem)] rounded-xl bg-white p-0 text-slate-900 shadow-2xl ring-1 ring-slate-900/10 backdrop:bg-slate-900/40 backdrop:backdrop-blur-[1px]",
        SIZES[size],
      )}
    >
      {open ? (
        <CloseGuardContext value={registerGuard}>
          <div className="flex max-h-[85vh] flex-col">
            <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
              <div className="min-w-0">
                <h2 id={titleId} className="text-base font-semibold text-slate-900">
                  {title}
                </h2>
                {description ? (
                  <p id={descriptionId} className="mt-1 text-sm text-slate-500">
                    {description}
                  </p>
                ) : null}
              </div>
              <button
                type="button"
                onClick={requestClose}
                aria-label="Close dialog"
                className="-mr-1 rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <svg viewBox="0 0 20 20" fill="currentColor" className="size-5" aria-hidden="true">
                  <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
                </svg>
              </button>
            </div>
            {children ? <div className="overflow-y-auto px-5 py-4">{children}</div> : null}
            {footer ? (
              <div className="flex flex-col-reverse gap-2 border-t border-slate-100 bg-slate-50/60 px-5 py-3 sm:flex-row sm:justify-end">
                {footer}
              </div>
            ) : null}
          </div>
        </CloseGuardContext>
      ) : null}
    </dialog>
  );
}

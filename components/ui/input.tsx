import { cn } from "./cn";

/** Shared look of text inputs and selects (also for custom controls that should match). */
export const controlClasses = (invalid?: boolean, className?: string) =>
  cn(
    "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-400",
    "focus:outline-2 focus:-outline-offset-1 focus:outline-brand-600 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500",
    invalid ? "border-red-500 focus:outline-red-600" : "border-slate-300",
    className,
  );

export interface InputProps extends React.InputHTMLAttributes<HTMLInputElement> {
  /** Red border and aria-invalid (Field sets it from its error). */
  invalid?: boolean;
  ref?: React.Ref<HTMLInputElement>;
}

/** A text-like input (text, email, password, number, search, date). Label it with Field or aria-label. */
export function Input({ invalid, className, ...props }: InputProps) {
  return (
    <input
      className={controlClasses(invalid, cn("h-10", className))}
      aria-invalid={invalid || props["aria-invalid"] || undefined}
      {...props}
    />
  );
}

export interface TextareaProps extends React.TextareaHTMLAttributes<HTMLTextAreaElement> {
  invalid?: boolean;
  ref?: React.Ref<HTMLTextAreaElement>;
}

/** A multi-line text input. */
export function Textarea({ invalid, className, ...props }: TextareaProps) {
  return (
    <textarea
      className={controlClasses(invalid, cn("min-h-24", className))}
      aria-invalid={invalid || props["aria-invalid"] || undefined}
      {...props}
    />
  );
}

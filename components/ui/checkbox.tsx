import { useId } from "react";
import { cn } from "./cn";

export interface CheckboxProps extends Omit<React.InputHTMLAttributes<HTMLInputElement>, "type"> {
  /** The visible label (clicking it toggles the box). */
  label: React.ReactNode;
  /** Smaller text under the label. */
  description?: React.ReactNode;
  ref?: React.Ref<HTMLInputElement>;
}

/** A checkbox with its label (and optional description) on the right. */
export function Checkbox({ label, description, className, id, ...props }: CheckboxProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={cn("flex items-start gap-2.5", className)}>
      <input
        id={inputId}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        aria-describedby={description ? `${inputId}-description` : undefined}
        {...props}
      />
      <div className="text-sm leading-5">
        <label htmlFor={inputId} className="font-medium text-slate-800">
          {label}
        </label>
        {description ? (
          <p id={`${inputId}-description`} className="text-slate-500">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}

import { cloneElement, isValidElement, useId } from "react";
import { cn } from "./cn";

export interface LabelProps extends React.LabelHTMLAttributes<HTMLLabelElement> {
  /** Adds a "required" marker (the input itself should also be `required`). */
  required?: boolean;
}

export function Label({ required, className, children, ...props }: LabelProps) {
  return (
    <label className={cn("block text-sm font-medium text-slate-800", className)} {...props}>
      {children}
      {required ? (
        <span className="ml-0.5 text-red-600" aria-hidden="true">
          *
        </span>
      ) : null}
    </label>
  );
}

type ControlProps = {
  id?: string;
  invalid?: boolean;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
};

export interface FieldProps {
  label: React.ReactNode;
  /** The control: one Input, Select or Textarea. Field gives it an id, aria-invalid and aria-describedby. */
  children: React.ReactElement<ControlProps>;
  /** Error text under the control (e.g. a server `details` message); marks the control invalid. */
  error?: string;
  /** Help text under the control. */
  hint?: React.ReactNode;
  required?: boolean;
  /** Use this id instead of a generated one. */
  id?: string;
  className?: string;
}

/** A labelled form control with optional hint and error text, wired for screen readers. */
export function Field({ label, children, error, hint, required, id, className }: FieldProps) {
  const autoId = useId();
  const controlId = id ?? children.props.id ?? autoId;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy =
    [children.props["aria-describedby"], hintId, errorId].filter(Boolean).join(" ") || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: controlId,
        invalid: Boolean(error) || children.props.invalid,
        "aria-describedby": describedBy,
      })
    : children;
  return (
    <div className={cn("space-y-1.5", className)}>
      <Label htmlFor={controlId} required={required}>
        {label}
      </Label>
      {control}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

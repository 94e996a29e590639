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
  value?: unknown;
  maxLength?: number;
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

/** From this share of a text control's `maxLength` on, the field shows how much is left. */
const NEAR_LIMIT = 0.8;

/**
 * A labelled control with hint and error, wired for screen readers. `maxLength` is shown, not
 * enforced, since the browser would silently cut pasted text; past it the field is invalid.
 */
export function Field({ label, children, error, hint, required, id, className }: FieldProps) {
  const autoId = useId();
  const controlId = id ?? children.props.id ?? autoId;
  const { maxLength, value } = children.props;
  const length = typeof value === "string" ? value.length : undefined;
  const counted = maxLength !== undefined && length !== undefined && length >= maxLength * NEAR_LIMIT;
  const overLimit = counted && length > maxLength;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const countId = counted ? `${controlId}-count` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy =
    [children.props["aria-describedby"], hintId, countId, errorId].filter(Boolean).join(" ") || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: controlId,
        invalid: Boolean(error) || overLimit || children.props.invalid,
        "aria-describedby": describedBy,
        maxLength: undefined,
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
      {counted ? (
        <p
          id={countId}
          aria-live="polite"
          className={cn("text-xs tabular-nums", overLimit ? "font-medium text-red-600" : "text-slate-500")}
        >
          {overLimit
            ? `${(length - maxLength).toLocaleString()} characters over the limit of ${maxLength.toLocaleString()}: shorten it to save`
            : `${length.toLocaleString()} / ${maxLength.toLocaleString()} characters`}
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

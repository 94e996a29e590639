import { cn } from "./cn";
import { controlClasses } from "./input";

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps extends React.SelectHTMLAttributes<HTMLSelectElement> {
  /** The choices; or pass <option> children instead. */
  options?: readonly SelectOption[];
  /** A first, empty choice (e.g. "All stages"). */
  placeholder?: string;
  invalid?: boolean;
  ref?: React.Ref<HTMLSelectElement>;
}

/** A native select (keyboard and screen-reader friendly on every platform). */
export function Select({ options, placeholder, invalid, className, children, ...props }: SelectProps) {
  return (
    <select
      className={controlClasses(invalid, cn("h-10 appearance-auto pr-8", className))}
      aria-invalid={invalid || props["aria-invalid"] || undefined}
      {...props}
    >
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {options?.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {children}
    </select>
  );
}

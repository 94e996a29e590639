"use client";

import { useEffect, useRef, useState } from "react";
import { Input, type InputProps } from "@/components/ui/input";

export interface DebouncedInputProps extends Omit<InputProps, "value" | "onChange" | "defaultValue"> {
  /** The applied value (usually from the URL). */
  value: string;
  /** Called with the typed text once typing pauses for `delay` ms (and at once on Enter). */
  onValueChange: (value: string) => void;
  delay?: number;
}

/**
 * A filter input applied after a pause in typing, so a search does not fire a request per key.
 * It follows outside changes to the value (Back, "Clear filters").
 */
export function DebouncedInput({
  value,
  onValueChange,
  delay = 300,
  onKeyDown,
  ...props
}: DebouncedInputProps) {
  const [text, setText] = useState(value);
  const [applied, setApplied] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Follow outside changes (React's "adjust state while rendering" pattern: no effect needed).
  if (value !== applied) {
    setApplied(value);
    setText(value);
  }

  useEffect(() => () => (timer.current ? clearTimeout(timer.current) : undefined), []);

  function apply(next: string) {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (next !== value) {
      setApplied(next);
      onValueChange(next);
    }
  }

  return (
    <Input
      {...props}
      value={text}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => apply(next), delay);
      }}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          apply(text);
        }
        onKeyDown?.(event);
      }}
    />
  );
}

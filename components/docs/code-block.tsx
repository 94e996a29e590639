import { CopyButton } from "@/components/ui/copy-button";

/** A shell snippet on a dark panel with a copy button; long lines scroll inside the panel. */
export function CodeBlock({ code, label = "curl" }: { code: string; label?: string }) {
  return (
    <div className="overflow-hidden rounded-lg bg-slate-900 ring-1 ring-slate-800">
      <div className="flex items-center justify-between border-b border-slate-700/60 px-3 py-1.5">
        <span className="text-xs font-medium text-slate-300">{label}</span>
        <CopyButton
          value={code}
          label="Copy"
          className="!h-7 !px-2 !text-xs"
          aria-label={`Copy the ${label} example`}
        />
      </div>
      {/* Focusable, so that keyboard users can scroll a long line (a scrollable region). */}
      <pre
        tabIndex={0}
        className="overflow-x-auto p-3 font-mono text-[12.5px] leading-relaxed text-slate-100"
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}

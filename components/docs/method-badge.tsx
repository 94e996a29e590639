import { cn } from "@/components/ui/cn";

const COLORS: Record<string, string> = {
  GET: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  POST: "bg-sky-50 text-sky-800 ring-sky-600/20",
  PUT: "bg-amber-50 text-amber-800 ring-amber-600/20",
  PATCH: "bg-amber-50 text-amber-800 ring-amber-600/20",
  DELETE: "bg-rose-50 text-rose-800 ring-rose-600/20",
};

export function MethodBadge({ method, small = false }: { method: string; small?: boolean }) {
  return (
    <span
      className={cn(
        "inline-flex shrink-0 justify-center rounded font-mono font-semibold ring-1 ring-inset",
        small ? "w-12 px-1 py-px text-[10px]" : "px-2 py-0.5 text-xs",
        COLORS[method] ?? "bg-slate-100 text-slate-700 ring-slate-500/20",
      )}
    >
      {method}
    </span>
  );
}

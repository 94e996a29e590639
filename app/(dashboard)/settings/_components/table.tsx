import { cn } from "@/components/ui/cn";

/**
 * The settings tables, from the md breakpoint up (phones get a stacked list instead, see
 * MobileList); horizontally scrollable when the window is narrow.
 */
export function SettingsTable({
  label,
  children,
  minWidth = "48rem",
}: {
  label: string;
  children: React.ReactNode;
  minWidth?: string;
}) {
  return (
    <div className="hidden overflow-x-auto md:block">
      <table aria-label={label} className="w-full text-left text-sm" style={{ minWidth }}>
        {children}
      </table>
    </div>
  );
}

export function Th({ children, className }: { children?: React.ReactNode; className?: string }) {
  return (
    <th
      scope="col"
      className={cn(
        "border-b border-slate-200 bg-slate-50 px-4 py-2.5 text-xs font-semibold tracking-wide text-slate-500 uppercase first:pl-5 last:pr-5",
        className,
      )}
    >
      {children}
    </th>
  );
}

export function Td({ children, className }: { children?: React.ReactNode; className?: string }) {
  return (
    <td
      className={cn(
        "border-b border-slate-100 px-4 py-3 align-middle text-slate-700 first:pl-5 last:pr-5",
        className,
      )}
    >
      {children}
    </td>
  );
}

/** The phone version of a settings table: one block per record. */
export function MobileList({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-100 md:hidden">
      {children}
    </ul>
  );
}

/** A label/value pair inside a MobileList item. */
export function MobileDetail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right text-slate-800">{children}</dd>
    </div>
  );
}

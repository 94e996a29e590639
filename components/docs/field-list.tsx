import type { ReferenceField, ReferenceParameter } from "@/lib/openapi/reference";
import { RichText } from "./rich-text";

/**
 * Fields as rows that stack on a phone: name, type and "required" on the left (or on top), the
 * description and limits beside (or below). Nested fields are indented under their parent.
 */
export function FieldList({
  fields,
  showIn = false,
  output = false,
}: {
  fields: (ReferenceField | ReferenceParameter)[];
  showIn?: boolean;
  /** Response fields: mark the ones that may be absent, rather than the ones a client must send. */
  output?: boolean;
}) {
  if (fields.length === 0) return <p className="text-sm text-slate-500">None.</p>;
  return (
    <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
      {fields.map((field) => (
        <div
          key={`${"in" in field ? field.in : ""}${field.name}`}
          className="grid gap-x-4 gap-y-1 px-3 py-2.5 sm:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]"
        >
          <dt className="min-w-0" style={{ paddingLeft: `${field.depth * 0.75}rem` }}>
            <span className="font-mono text-[13px] font-semibold [overflow-wrap:anywhere] text-slate-900">
              {field.name}
            </span>
            <span className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs">
              <span className="font-mono [overflow-wrap:anywhere] text-violet-700">{field.type}</span>
              {showIn && "in" in field ? <span className="text-slate-500">{field.in}</span> : null}
              {!output && field.required ? (
                <span className="rounded bg-rose-50 px-1 text-[10px] font-semibold tracking-wide text-rose-700 uppercase">
                  required
                </span>
              ) : null}
              {output && !field.required ? (
                <span className="rounded bg-slate-100 px-1 text-[10px] font-semibold tracking-wide text-slate-600 uppercase">
                  may be absent
                </span>
              ) : null}
            </span>
          </dt>
          <dd className="min-w-0 text-sm leading-relaxed text-slate-700">
            {field.description ? (
              <RichText text={field.description} />
            ) : (
              <span className="text-slate-400">—</span>
            )}
            {field.constraints.length > 0 ? (
              <span className="mt-1 flex flex-wrap gap-1">
                {field.constraints.map((c) => (
                  <span key={c} className="rounded bg-slate-100 px-1.5 py-px text-xs text-slate-600">
                    {c}
                  </span>
                ))}
              </span>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

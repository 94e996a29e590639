import type { Reference } from "@/lib/openapi/reference";
import { MethodBadge } from "./method-badge";
import { TYPED_CLIENT_SECTION } from "./typed-client/snippets";

/** The table of contents: guide sections, then every endpoint by resource. */
export function DocsNav({ reference }: { reference: Reference }) {
  return (
    <nav aria-label="API reference contents" className="space-y-6 text-sm">
      <div>
        <p className="mb-2 text-xs font-semibold tracking-wider text-slate-500 uppercase">Guide</p>
        <ul className="space-y-0.5">
          {reference.guide.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="block rounded px-2 py-1 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
              >
                {section.title}
              </a>
            </li>
          ))}
          <li>
            <a
              href={`#${TYPED_CLIENT_SECTION.id}`}
              className="block rounded px-2 py-1 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
            >
              {TYPED_CLIENT_SECTION.title}
            </a>
          </li>
        </ul>
      </div>
      {reference.groups.map((group) => (
        <div key={group.id}>
          <a
            href={`#${group.id}`}
            className="mb-1 block text-xs font-semibold tracking-wider text-slate-500 uppercase hover:text-slate-800"
          >
            {group.name}
          </a>
          <ul className="space-y-0.5">
            {group.endpoints.map((endpoint) => (
              <li key={endpoint.id}>
                <a
                  href={`#${endpoint.id}`}
                  className="flex items-center gap-2 rounded px-2 py-1 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                >
                  <MethodBadge method={endpoint.method} small />
                  <span className="truncate font-mono text-[12.5px]">{endpoint.path}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { DocsNav } from "@/components/docs/docs-nav";
import { EndpointSection } from "@/components/docs/endpoint-section";
import { GuideSectionView } from "@/components/docs/guide-section";
import { RichText } from "@/components/docs/rich-text";
import { TypedClientSection } from "@/components/docs/typed-client-section";
import { getOpenApiDocument } from "@/app/api/routes";
import { buildReference } from "@/lib/openapi/reference";

export const metadata: Metadata = {
  title: "API reference",
  description: "The FieldCRM HTTP/JSON API: endpoints, parameters, fields, scopes, errors and examples.",
};

// The reference is the OpenAPI document rendered; it changes only with a new build.
export const dynamic = "force-static";

export default function DocsPage() {
  const reference = buildReference(getOpenApiDocument());
  const endpointCount = reference.groups.reduce((n, g) => n + g.endpoints.length, 0);
  return (
    <div className="min-h-full bg-slate-50">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
          <a href="#top" className="flex min-w-0 items-center gap-2">
            <span className="grid size-7 shrink-0 place-items-center rounded-md bg-brand-600 text-sm font-bold text-white">
              F
            </span>
            <span className="truncate font-semibold text-slate-900">{reference.title}</span>
            <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-600">
              v{reference.version}
            </span>
          </a>
          <div className="flex shrink-0 items-center gap-3 text-sm">
            <a href="/api/openapi.json" className="font-medium text-brand-700 hover:underline">
              openapi.json
            </a>
            <Link href="/" prefetch={false} className="hidden text-slate-600 hover:text-slate-900 sm:inline">
              Dashboard
            </Link>
          </div>
        </div>
      </header>

      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:grid lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-10">
        <aside className="hidden lg:block">
          <div className="sticky top-14 max-h-[calc(100vh-3.5rem)] overflow-y-auto py-8 pr-2">
            <DocsNav reference={reference} />
          </div>
        </aside>

        <main id="top" className="min-w-0 py-8">
          <div className="max-w-4xl space-y-12">
            <div className="space-y-3">
              <p className="text-sm font-medium text-brand-700">API reference</p>
              <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
                {reference.title}
              </h1>
              <p className="text-lg text-slate-600">{reference.summary}</p>
              <p className="text-sm text-slate-500">
                {endpointCount} endpoints · version header{" "}
                <code className="font-mono">service-api-version: {reference.version}</code> · generated from
                the same schemas that validate every request
              </p>
            </div>

            <details className="rounded-lg border border-slate-200 bg-white p-3 lg:hidden">
              <summary className="cursor-pointer text-sm font-semibold text-slate-800">Contents</summary>
              <div className="mt-3">
                <DocsNav reference={reference} />
              </div>
            </details>

            {reference.guide.map((section) => (
              <GuideSectionView key={section.id} section={section} />
            ))}

            <TypedClientSection />

            {reference.groups.map((group) => (
              <section
                key={group.id}
                id={group.id}
                aria-labelledby={`${group.id}-title`}
                className="scroll-mt-20 space-y-6"
              >
                <div className="border-t border-slate-200 pt-10">
                  <h2
                    id={`${group.id}-title`}
                    className="text-2xl font-semibold tracking-tight text-slate-900"
                  >
                    {group.name}
                  </h2>
                  <p className="mt-1 text-slate-600">
                    <RichText text={group.description} />
                  </p>
                </div>
                {group.endpoints.map((endpoint) => (
                  <EndpointSection key={endpoint.id} endpoint={endpoint} />
                ))}
              </section>
            ))}
          </div>
        </main>
      </div>
    </div>
  );
}

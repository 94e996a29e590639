import type { ReferenceEndpoint } from "@/lib/openapi/reference";
import { CodeBlock } from "./code-block";
import { FieldList } from "./field-list";
import { MethodBadge } from "./method-badge";
import { RichText } from "./rich-text";

function Heading({ children }: { children: React.ReactNode }) {
  return <h4 className="mb-2 text-xs font-semibold tracking-wider text-slate-500 uppercase">{children}</h4>;
}

function AccessLine({ endpoint }: { endpoint: ReferenceEndpoint }) {
  const who =
    endpoint.auth === "none"
      ? "Public"
      : endpoint.auth === "session"
        ? "Dashboard session only"
        : "API key or session";
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{who}</span>
      {endpoint.scopes.length === 0 && endpoint.auth !== "none" && !endpoint.roles ? (
        <span className="text-xs text-slate-500">no scope needed</span>
      ) : null}
      {endpoint.scopes.map((scope, i) => (
        <span key={scope} className="flex items-center gap-2">
          {i > 0 ? <span className="text-xs text-slate-500">or</span> : null}
          <span className="rounded-full bg-brand-50 px-2 py-0.5 font-mono text-xs text-brand-700 ring-1 ring-brand-600/20 ring-inset">
            {scope}
          </span>
        </span>
      ))}
      {endpoint.roles?.map((role) => (
        <span
          key={role}
          className="rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-800 ring-1 ring-amber-600/20 ring-inset"
        >
          role {role}
        </span>
      ))}
    </div>
  );
}

/** One endpoint: what it does, who may call it, its inputs, answers and errors, and a curl example. */
export function EndpointSection({ endpoint }: { endpoint: ReferenceEndpoint }) {
  // The access rules are shown as chips; the document's access sentence is kept for the legacy note only.
  const description = endpoint.description.filter((p) => !p.startsWith("**Access:**"));
  const access = endpoint.description.find((p) => p.startsWith("**Access:**"));
  const legacy = access?.includes("legacy rule");
  return (
    <article
      id={endpoint.id}
      aria-labelledby={`${endpoint.id}-title`}
      className="scroll-mt-20 rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <header className="space-y-3 border-b border-slate-100 p-4 sm:p-5">
        <div className="flex flex-wrap items-center gap-2">
          <MethodBadge method={endpoint.method} />
          <code className="font-mono text-[15px] font-semibold [overflow-wrap:anywhere] text-slate-900">
            {endpoint.path}
          </code>
        </div>
        <h3 id={`${endpoint.id}-title`} className="text-lg font-semibold text-slate-900">
          {endpoint.summary}
        </h3>
        <AccessLine endpoint={endpoint} />
        {endpoint.scopeNamed && endpoint.scopes.length > 1 ? (
          <p className="text-xs text-slate-500">
            Any one of the scopes is enough; a 403 names{" "}
            <code className="font-mono">{endpoint.scopeNamed}</code>.
            {legacy ? (
              <>
                {" "}
                <code className="font-mono">leads:read</code> is accepted so keys made for the original
                interface keep working.
              </>
            ) : null}
          </p>
        ) : null}
      </header>
      <div className="space-y-6 p-4 sm:p-5">
        {description.length > 0 ? (
          <div className="space-y-3 text-[15px] leading-relaxed text-slate-700">
            {description.map((paragraph) => (
              <p key={paragraph}>
                <RichText text={paragraph} />
              </p>
            ))}
          </div>
        ) : null}

        <section>
          <Heading>Parameters</Heading>
          <FieldList fields={endpoint.parameters} showIn />
        </section>

        {endpoint.body ? (
          <section>
            <Heading>
              Request body
              {endpoint.body.schemaName ? (
                <span className="font-mono font-normal tracking-normal normal-case">
                  {" "}
                  · {endpoint.body.schemaName}
                </span>
              ) : null}
            </Heading>
            {endpoint.body.description ? (
              <p className="mb-2 text-sm text-slate-600">
                <RichText text={endpoint.body.description} />
              </p>
            ) : null}
            <FieldList fields={endpoint.body.fields} />
          </section>
        ) : null}

        <section className="space-y-4">
          <Heading>Responses</Heading>
          {endpoint.responses.map((response) => (
            <div key={response.status} className="space-y-2">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <span className="rounded bg-emerald-700 px-1.5 py-px font-mono text-xs font-semibold text-white">
                  {response.status}
                </span>
                <span className="text-slate-700">
                  <RichText text={response.description} />
                </span>
                <span className="text-xs text-slate-500">
                  {response.contentType}
                  {response.schemaName ? ` · ${response.schemaName}` : ""}
                </span>
              </p>
              {response.fields.length > 0 &&
              // Two answers of one schema (created / updated): list the fields once.
              endpoint.responses.findIndex((r) => r.schemaName === response.schemaName) ===
                endpoint.responses.indexOf(response) ? (
                <details className="group rounded-lg" open={response.fields.length <= 12}>
                  <summary className="cursor-pointer text-sm font-medium text-brand-700 hover:underline">
                    {response.fields.length}{" "}
                    {response.contentType === "text/csv" ? "CSV columns" : "response fields"}
                  </summary>
                  <div className="mt-2">
                    <FieldList fields={response.fields} output />
                  </div>
                </details>
              ) : null}
            </div>
          ))}
        </section>

        <section>
          <Heading>Errors</Heading>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {endpoint.errors.map((error) => (
              <li key={error.label} className="flex gap-3 px-3 py-2 text-sm">
                <span className="w-9 shrink-0 font-mono text-xs leading-5 font-semibold text-rose-700">
                  {error.status}
                </span>
                <span className="min-w-0">
                  <span
                    className={
                      error.code
                        ? "font-mono text-[13px] font-semibold text-slate-900"
                        : "text-slate-900 italic"
                    }
                  >
                    {error.label}
                  </span>
                  <span className="block text-slate-600">{error.description}</span>
                  {error.example ? (
                    <span className="block text-xs break-words text-slate-500">“{error.example}”</span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        </section>

        <section>
          <Heading>Example</Heading>
          <CodeBlock code={endpoint.curl} />
        </section>
      </div>
    </article>
  );
}

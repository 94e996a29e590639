import { CodeBlock } from "./code-block";
import { RichText } from "./rich-text";
import { CLIENT_SOURCE, INSTALL_COMMANDS, TYPED_CLIENT_SECTION, USAGE_SOURCE } from "./typed-client/snippets";

/** How to call the API from TypeScript with types generated from this document. */
export function TypedClientSection() {
  const { id, title } = TYPED_CLIENT_SECTION;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 space-y-4">
      <h2 id={`${id}-title`} className="text-xl font-semibold tracking-tight text-slate-900">
        {title}
      </h2>
      <p className="leading-relaxed text-slate-700">
        <RichText
          text={
            "The document at `/api/openapi.json` generates the types of every path, parameter, body and " +
            "answer with **openapi-typescript**; **openapi-fetch** makes the calls. Set the client up once: " +
            "a middleware adds `service-api-version` and `x-api-key` to every request, so no call repeats them."
          }
        />
      </p>
      <CodeBlock code={INSTALL_COMMANDS} label="Install and generate the types" />
      <CodeBlock code={CLIENT_SOURCE} label="fieldcrm-client.ts" />
      <CodeBlock code={USAGE_SOURCE} label="Calling it" />
      <p className="leading-relaxed text-slate-700">
        <RichText
          text={
            "Answers come back as `{ data }` on success and `{ error }` (the error body) otherwise. " +
            "Regenerate the types when the server's version changes."
          }
        />
      </p>
    </section>
  );
}

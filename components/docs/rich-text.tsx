import { Fragment } from "react";

/**
 * The little markdown the document's texts use: `code` spans and **bold**. Everything else is
 * plain text (React escapes it), so no HTML from the document is ever injected.
 */
export function RichText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g).filter(Boolean);
  return (
    <>
      {parts.map((part, i) => {
        if (part.startsWith("`") && part.endsWith("`") && part.length > 2) {
          return (
            <code
              key={i}
              // A span may break anywhere it must: on a phone a path is wider than the text column.
              className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] break-words text-slate-800"
            >
              {part.slice(1, -1)}
            </code>
          );
        }
        if (part.startsWith("**") && part.endsWith("**") && part.length > 4) {
          return (
            <strong key={i} className="font-semibold text-slate-900">
              {part.slice(2, -2)}
            </strong>
          );
        }
        return <Fragment key={i}>{part}</Fragment>;
      })}
    </>
  );
}

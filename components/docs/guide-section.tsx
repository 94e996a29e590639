import type { GuideSection } from "@/lib/openapi/guide";
import { CodeBlock } from "./code-block";
import { RichText } from "./rich-text";

/** One section of the introduction, from the document's x-guide. */
export function GuideSectionView({ section }: { section: GuideSection }) {
  return (
    <section id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-20 space-y-4">
      <h2 id={`${section.id}-title`} className="text-xl font-semibold tracking-tight text-slate-900">
        {section.title}
      </h2>
      {section.blocks.map((block, i) => {
        switch (block.kind) {
          case "text":
            return (
              <p key={i} className="leading-relaxed text-slate-700">
                <RichText text={block.text} />
              </p>
            );
          case "list":
            return (
              <ul
                key={i}
                className="list-disc space-y-2 pl-5 leading-relaxed text-slate-700 marker:text-slate-400"
              >
                {block.items.map((item) => (
                  <li key={item}>
                    <RichText text={item} />
                  </li>
                ))}
              </ul>
            );
          case "code":
            return <CodeBlock key={i} code={block.text} label="Example" />;
          case "table":
            return (
              <div key={i}>
                {/* Phones: one card per row, every cell labelled by its column. */}
                <div className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white sm:hidden">
                  {block.rows.map((row, r) => (
                    <dl
                      key={r}
                      className="grid grid-cols-[minmax(4.5rem,auto)_minmax(0,1fr)] gap-x-3 gap-y-1 px-3 py-2.5 text-sm"
                    >
                      {row.map((cell, c) => (
                        <div key={c} className="contents">
                          <dt className="pt-0.5 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">
                            {block.columns[c]}
                          </dt>
                          <dd className={c === 0 ? "font-medium text-slate-900" : "text-slate-700"}>
                            <RichText text={cell} />
                          </dd>
                        </div>
                      ))}
                    </dl>
                  ))}
                </div>
                <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white sm:block">
                  <table className="w-full text-left text-sm">
                    <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                      <tr>
                        {block.columns.map((column) => (
                          <th key={column} scope="col" className="px-3 py-2">
                            {column}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {block.rows.map((row, r) => (
                        <tr key={r} className="align-top">
                          {row.map((cell, c) => (
                            <td
                              key={c}
                              className={c === 0 ? "px-3 py-2 whitespace-nowrap" : "px-3 py-2 text-slate-700"}
                            >
                              <RichText text={cell} />
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
            );
        }
      })}
    </section>
  );
}

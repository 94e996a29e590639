"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { PageHeader } from "@/components/shell/page-header";
import { Card, CardBody, CardHeader, ErrorState, LoadingBlock, cn } from "@/components/ui";
import { telHref } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import { lastListView, type RecordKind, RECORD_WORDS, recordListHref } from "./record-kind";

/**
 * The parts of a lead's and a customer's page: the loading and error states, the "Details" card
 * of facts, the edit card, and the id line under them. Each page arranges its own facts.
 */

const noSubscription = () => () => {};

/**
 * The "All leads" / "All customers" link above the title: back to the list as this tab last
 * showed it (filters, page, sort). The server renders the plain list; the browser reads the view.
 */
export function useRecordBack(kind: RecordKind) {
  const href = useSyncExternalStore(
    noSubscription,
    () => lastListView(kind),
    () => recordListHref(kind),
  );
  return { href, label: `All ${RECORD_WORDS[kind].many}` };
}

/**
 * The page while the record loads or cannot be shown ("not found" has no Retry):
 * `if (!query.isSuccess) return <RecordQueryState kind="lead" query={query} />;`
 */
export function RecordQueryState({
  kind,
  query,
}: {
  kind: RecordKind;
  query: Pick<UseQueryResult, "isPending" | "error" | "refetch">;
}) {
  const words = RECORD_WORDS[kind];
  const back = useRecordBack(kind);
  if (query.isPending) {
    return (
      <div>
        <PageHeader title={words.One} back={back} />
        <LoadingBlock label={`Loading ${words.one}`} />
      </div>
    );
  }
  const notFound = query.error instanceof ApiClientError && query.error.status === 404;
  return (
    <div>
      <PageHeader title={words.One} back={back} />
      <Card>
        <ErrorState
          title={notFound ? `${words.One} not found` : `Could not load this ${words.one}`}
          error={notFound ? undefined : query.error}
          onRetry={notFound ? undefined : () => void query.refetch()}
        />
      </Card>
    </div>
  );
}

/** One fact of the "Details" list: a small uppercase label over its value. */
export function Fact({
  label,
  children,
  className,
}: {
  label: string;
  children: React.ReactNode;
  /** Grid placement, e.g. "col-span-2" for a fact as wide as the card. */
  className?: string;
}) {
  return (
    <div className={cn("min-w-0", className)}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/** An email or phone as a mailto:/tel: link (a phone without digits as text), or a dash. */
export function ContactLink({
  value,
  scheme,
  className,
}: {
  value: string | null | undefined;
  scheme: "mailto" | "tel";
  className?: string;
}) {
  if (!value) return "—";
  const href = scheme === "tel" ? telHref(value) : `mailto:${value}`;
  if (!href) return value;
  return (
    <a className={cn("text-brand-700 hover:underline", className)} href={href} title={value}>
      {value}
    </a>
  );
}

export interface AddressParts {
  street1?: string | null;
  street2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: string | null;
}

/** An address as the lines it is written in: street, street 2, "City, ST 12345", country. */
export function addressLines(a: AddressParts): string[] {
  const cityLine = [a.city, [a.state, a.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [a.street1, a.street2, cityLine, a.country].filter((line): line is string => Boolean(line));
}

/** The lines of an address, one under the other, or a dash. */
export function AddressLines({ lines }: { lines: readonly string[] }) {
  if (lines.length === 0) return "—";
  return lines.map((line) => (
    <span key={line} className="block">
      {line}
    </span>
  ));
}

/** The "Details" card: the record's facts as a description list (`listClassName`: its grid). */
export function FactsCard({
  kind,
  listClassName,
  children,
}: {
  kind: RecordKind;
  listClassName: string;
  children: React.ReactNode;
}) {
  const id = `${kind}-facts`;
  return (
    <Card aria-labelledby={id} className="self-start">
      <CardHeader id={id} title="Details" />
      <CardBody>
        <dl className={listClassName}>{children}</dl>
      </CardBody>
    </Card>
  );
}

/** The card around the record's edit form. */
export function EditCard({ kind, children }: { kind: RecordKind; children: React.ReactNode }) {
  const id = `${kind}-edit`;
  return (
    <Card aria-labelledby={id}>
      <CardHeader
        id={id}
        title={`Edit ${RECORD_WORDS[kind].one}`}
        description="Saved through the same create-or-update endpoint your integrations use."
      />
      <CardBody>{children}</CardBody>
    </Card>
  );
}

/** The line under the cards: "Lead id lead_…", and anything after it. */
export function RecordIdLine({
  kind,
  id,
  children,
}: {
  kind: RecordKind;
  id: string;
  children?: React.ReactNode;
}) {
  return (
    <p className="mt-4 text-xs text-slate-500">
      {RECORD_WORDS[kind].One} id <code className="rounded bg-slate-100 px-1 text-slate-700">{id}</code>
      {children}
    </p>
  );
}

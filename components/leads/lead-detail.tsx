"use client";

import { PageHeader } from "@/components/shell/page-header";
import { useState } from "react";
import { Badge, Card, CardBody, CardHeader, ErrorState, LoadingBlock } from "@/components/ui";
import { ApiClientError } from "@/lib/query/api-client";
import { formatDate, formatMoney } from "@/lib/format";
import { type Lead, type LeadSaveResult, useLead } from "@/lib/query/leads";
import { TagList } from "@/components/data-table/cells";
import { LeadForm } from "./lead-form";
import { stageLabel } from "./lead-options";
import { SaveOutcome } from "./save-outcome";

function addressLines(lead: Lead): string[] {
  const cityLine = [lead.property_city, [lead.property_state, lead.property_zip].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  return [lead.property_street1, lead.property_street2, cityLine, lead.property_country].filter(
    (line): line is string => Boolean(line),
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** /leads/[id]: the lead's facts and its edit form (POST /api/leads with the id). */
export function LeadDetail({ id }: { id: string }) {
  const query = useLead(id);
  const [outcome, setOutcome] = useState<LeadSaveResult | null>(null);

  const back = { href: "/leads", label: "All leads" };

  if (query.isPending) {
    return (
      <div>
        <PageHeader title="Lead" back={back} />
        <LoadingBlock label="Loading lead" />
      </div>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ApiClientError && query.error.status === 404;
    return (
      <div>
        <PageHeader title="Lead" back={back} />
        <Card>
          <ErrorState
            title={notFound ? "Lead not found" : "Could not load this lead"}
            error={notFound ? undefined : query.error}
            onRetry={notFound ? undefined : () => void query.refetch()}
          />
        </Card>
      </div>
    );
  }

  const lead = query.data;
  const address = addressLines(lead);
  return (
    <div>
      <PageHeader
        back={back}
        title={
          <span className="flex flex-wrap items-center gap-2">
            {lead.name || "(no name)"}
            {lead.stage ? <Badge tone="info">{stageLabel(lead.stage)}</Badge> : null}
            {lead.priority ? (
              <Badge
                tone={
                  lead.priority === "high" ? "danger" : lead.priority === "medium" ? "warning" : "neutral"
                }
              >
                <span className="capitalize">{lead.priority}</span>&nbsp;priority
              </Badge>
            ) : null}
            {lead.archived ? <Badge tone="neutral">Archived</Badge> : null}
          </span>
        }
      />

      {outcome ? (
        <SaveOutcome
          className="mb-4"
          kind="lead"
          showLink={false}
          result={{ ...outcome, id: outcome.lead.id, name: outcome.lead.name, tags: outcome.lead.tags }}
          onDismiss={() => setOutcome(null)}
        />
      ) : null}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <Card aria-labelledby="lead-facts" className="self-start">
          <CardHeader id="lead-facts" title="Details" />
          <CardBody>
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-1">
              <Fact label="Email">
                {lead.email ? (
                  <a className="text-brand-700 hover:underline" href={`mailto:${lead.email}`}>
                    {lead.email}
                  </a>
                ) : (
                  "—"
                )}
              </Fact>
              <Fact label="Phone">
                {lead.phone ? (
                  <a className="text-brand-700 hover:underline" href={`tel:${lead.phone}`}>
                    {lead.phone}
                  </a>
                ) : (
                  "—"
                )}
              </Fact>
              <Fact label="Property address">
                {address.length > 0
                  ? address.map((line) => (
                      <span key={line} className="block">
                        {line}
                      </span>
                    ))
                  : "—"}
              </Fact>
              <Fact label="Projected value">{formatMoney(lead.projected_value)}</Fact>
              <Fact label="Follow-up date">{formatDate(lead.follow_up_date)}</Fact>
              <Fact label="Service type">{lead.service_type ?? "—"}</Fact>
              <Fact label="Source">{lead.lead_source ?? "—"}</Fact>
              <Fact label="Created">{formatDate(lead.created_at)}</Fact>
              {lead.archived ? <Fact label="Archived">{formatDate(lead.archived_at)}</Fact> : null}
              <div className="col-span-2 lg:col-span-1">
                <Fact label="Tags">
                  <span data-testid="lead-tags">
                    <TagList tags={lead.tags} />
                  </span>
                </Fact>
              </div>
            </dl>
          </CardBody>
        </Card>

        <Card aria-labelledby="lead-edit">
          <CardHeader
            id="lead-edit"
            title="Edit lead"
            description="Saved through the same create-or-update endpoint your integrations use."
          />
          <CardBody>
            <LeadForm key={lead.id} lead={lead} onSaved={setOutcome} />
          </CardBody>
        </Card>
      </div>
      <p className="mt-4 text-xs text-slate-500">
        Lead id <code className="rounded bg-slate-100 px-1">{lead.id}</code>
      </p>
    </div>
  );
}

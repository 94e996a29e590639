"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { TagList } from "@/components/data-table/cells";
import { ActivityTimeline, useLeadValueNames } from "@/components/records/activity-timeline";
import { ArchiveButton } from "@/components/records/archive-button";
import {
  AddressLines,
  ContactLink,
  EditCard,
  Fact,
  FactsCard,
  RecordIdLine,
  RecordQueryState,
  addressLines,
  useRecordBack,
} from "@/components/records/record-detail";
import { recordHref } from "@/components/records/record-kind";
import { SaveOutcome } from "@/components/records/save-outcome";
import { PageHeader } from "@/components/shell/page-header";
import { Badge, Button, Card, CardBody, CardHeader } from "@/components/ui";
import { formatDate, formatMoney } from "@/lib/format";
import { type Lead, type LeadSaveResult, useLead } from "@/lib/query/leads";
import { useCanConvertLead } from "@/lib/query/activity";
import { useCustomer } from "@/lib/query/customers";
import { useCan } from "@/lib/query/session";
import { customerName } from "@/lib/values/customer-name";
import { ConvertLeadDialog } from "./convert-lead-dialog";
import { OwnerName } from "./lead-owner";
import { LeadPinMap } from "./lead-pin-map";
import { LeadForm, leadSaveOutcome } from "./lead-form";
import { StageBadge } from "./stage-badge";
import { StageBar } from "./stage-bar";

function propertyOf(lead: Lead) {
  return {
    street1: lead.property_street1,
    street2: lead.property_street2,
    city: lead.property_city,
    state: lead.property_state,
    zip: lead.property_zip,
    country: lead.property_country,
  };
}

/** The customer a converted lead became, by name. */
function CustomerLink({ id }: { id: string }) {
  const customer = useCustomer(id);
  return (
    <Link
      href={recordHref("customer", id)}
      className="text-brand-700 underline"
      data-testid="lead-customer-link"
    >
      {(customer.data && customerName(customer.data)) || "open the customer"}
    </Link>
  );
}

/** Whole days from today to a follow-up date: negative when it is past (a date is due all that day). */
function daysFromToday(value: string): number {
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  const due = new Date(value);
  due.setHours(0, 0, 0, 0);
  return Math.round((due.getTime() - today.getTime()) / 86_400_000);
}

const relativeDays = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });

/** The lead's next follow-up, first thing on the page: when, and whose. */
function FollowUpCard({ lead }: { lead: Lead }) {
  const date = lead.follow_up_date;
  return (
    <Card aria-labelledby="lead-follow-up">
      <CardHeader id="lead-follow-up" title="Next follow-up" />
      <CardBody>
        {date ? (
          <p
            className="flex flex-wrap items-center gap-2 text-sm text-slate-900"
            data-testid="lead-follow-up"
          >
            <span className="text-base font-semibold">{formatDate(date)}</span>
            <span className="text-slate-600">({relativeDays.format(daysFromToday(date), "day")})</span>
            {daysFromToday(date) < 0 ? <Badge tone="danger">Overdue</Badge> : null}
          </p>
        ) : (
          <p className="text-sm text-slate-600" data-testid="lead-follow-up">
            No follow-up set. Edit the lead to set a date.
          </p>
        )}
        <p className="mt-1 text-sm text-slate-600">
          Owner: {lead.assigned_to ? <OwnerName id={lead.assigned_to} /> : "unassigned"}
        </p>
      </CardBody>
    </Card>
  );
}

/**
 * /leads/[id]: what the user does first (the stage bar, the next follow-up, notes and activity),
 * the facts beside them, and the edit form (POST /api/leads with the id) behind an Edit button.
 */
export function LeadDetail({ id, tileUrl }: { id: string; tileUrl?: string }) {
  const query = useLead(id);
  const [outcome, setOutcome] = useState<LeadSaveResult | null>(null);
  const back = useRecordBack("lead");
  const canWrite = useCan("leads:write");
  const canConvert = useCanConvertLead();
  const [converting, setConverting] = useState(false);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const names = useLeadValueNames();

  if (!query.isSuccess) return <RecordQueryState kind="lead" query={query} />;

  const lead = query.data;
  return (
    <div>
      <PageHeader
        back={back}
        title={
          <span className="flex flex-wrap items-center gap-2">
            {lead.name || "(no name)"}
            {lead.stage ? <StageBadge stage={lead.stage} /> : null}
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
        description={
          lead.customer_id ? (
            <>
              Customer: <CustomerLink id={lead.customer_id} />
            </>
          ) : undefined
        }
        actions={
          canWrite ? (
            <>
              {!editing ? (
                <Button
                  ref={editButton}
                  size="sm"
                  variant="secondary"
                  aria-controls="lead-edit-card"
                  aria-expanded={false}
                  onClick={() => {
                    setEditing(true);
                    // The form opens above the fold's content: take the keyboard to its first field.
                    requestAnimationFrame(() =>
                      document.querySelector<HTMLElement>("#lead-edit-card input")?.focus(),
                    );
                  }}
                >
                  Edit
                </Button>
              ) : null}
              {canConvert && !lead.customer_id ? (
                <Button size="sm" onClick={() => setConverting(true)}>
                  Convert to customer
                </Button>
              ) : null}
              <ArchiveButton
                kind="lead"
                id={lead.id}
                name={lead.name ?? ""}
                archived={Boolean(lead.archived)}
              />
            </>
          ) : undefined
        }
      />
      {converting ? <ConvertLeadDialog lead={lead} onClose={() => setConverting(false)} /> : null}

      {outcome ? (
        <SaveOutcome
          className="mb-4"
          kind="lead"
          showLink={false}
          result={leadSaveOutcome(outcome)}
          onDismiss={() => setOutcome(null)}
        />
      ) : null}

      <StageBar lead={lead} canWrite={canWrite} />

      {editing && canWrite ? (
        <div id="lead-edit-card" className="mb-4">
          <EditCard kind="lead">
            <LeadForm
              key={lead.id}
              lead={lead}
              onSaved={setOutcome}
              onCancel={() => {
                setEditing(false);
                requestAnimationFrame(() => editButton.current?.focus());
              }}
            />
          </EditCard>
        </div>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
        <div className="min-w-0">
          <FollowUpCard lead={lead} />
          <ActivityTimeline kind="lead" id={lead.id} canWrite={canWrite} names={names} />
        </div>
        <div className="min-w-0">
          <FactsCard kind="lead" listClassName="grid grid-cols-2 gap-4">
            <Fact label="Email">
              <ContactLink scheme="mailto" value={lead.email} />
            </Fact>
            <Fact label="Phone">
              <ContactLink scheme="tel" value={lead.phone} />
            </Fact>
            <Fact label="Property address">
              <AddressLines lines={addressLines(propertyOf(lead))} />
            </Fact>
            <Fact label="Projected value">{formatMoney(lead.projected_value)}</Fact>
            <Fact label="Follow-up date">{formatDate(lead.follow_up_date)}</Fact>
            <Fact label="Service type">{lead.service_type ?? "—"}</Fact>
            <Fact label="Owner">{lead.assigned_to ? <OwnerName id={lead.assigned_to} /> : "—"}</Fact>
            <Fact label="Source">{lead.lead_source ?? "—"}</Fact>
            {lead.lost_reason ? <Fact label="Lost reason">{lead.lost_reason}</Fact> : null}
            <Fact label="Created">{formatDate(lead.created_at)}</Fact>
            {lead.archived ? <Fact label="Archived">{formatDate(lead.archived_at)}</Fact> : null}
            <Fact label="Tags" className="col-span-2">
              <span data-testid="lead-tags">
                <TagList tags={lead.tags} />
              </span>
            </Fact>
          </FactsCard>
        </div>
      </div>
      <LeadPinMap leadId={lead.id} tileUrl={tileUrl} />
      <RecordIdLine kind="lead" id={lead.id} />
    </div>
  );
}

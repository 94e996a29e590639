"use client";

import Link from "next/link";
import { ActivityTimeline } from "@/components/records/activity-timeline";
import { ArchiveButton } from "@/components/records/archive-button";
import { LeadLink } from "@/components/leads/lead-link";
import { useRef, useState } from "react";
import { TagList } from "@/components/data-table/cells";
import {
  type AddressParts,
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
import { SaveOutcome } from "@/components/records/save-outcome";
import { PageHeader } from "@/components/shell/page-header";
import { Badge, Button } from "@/components/ui";
import { formatDate } from "@/lib/format";
import { type CustomerRecord, type CustomerSaveResult, useCustomer } from "@/lib/query/customers";
import { useCan } from "@/lib/query/session";
import { CustomerForm, customerSaveOutcome } from "./customer-form";
import { CustomerGlance } from "./customer-glance";
import { CustomerMoney } from "./customer-money";
import { customerName } from "@/lib/values/customer-name";

function billingOf(c: CustomerRecord): AddressParts {
  return {
    street1: c.billing_street1,
    street2: c.billing_street2,
    city: c.billing_city,
    state: c.billing_state,
    zip: c.billing_zip,
    country: c.billing_country,
  };
}

function Address({ lines, testId }: { lines: string[]; testId: string }) {
  return (
    <address className="not-italic" data-testid={testId}>
      <AddressLines lines={lines} />
    </address>
  );
}

const yesNo = (value: boolean | undefined) =>
  value === undefined ? "—" : value ? <Badge tone="success">Yes</Badge> : <Badge>No</Badge>;

/**
 * /customers/[id]: the balance and upcoming visits first, then notes and activity beside the facts
 * (address, billing, auto-pay, payment method); the edit form behind an Edit button.
 */
export function CustomerDetail({ id }: { id: string }) {
  const query = useCustomer(id);
  const canWrite = useCan("customers:write");
  const [outcome, setOutcome] = useState<CustomerSaveResult | null>(null);
  const back = useRecordBack("customer");
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);

  if (!query.isSuccess) return <RecordQueryState kind="customer" query={query} />;

  const customer = query.data;
  const property = addressLines(customer.address);
  const billingKnown = customer.billing_same_as_property !== undefined;
  const person = [customer.first_name, customer.last_name].filter(Boolean).join(" ");

  return (
    <div>
      <PageHeader
        back={back}
        title={
          <span className="flex flex-wrap items-center gap-2">
            {customerName(customer)}
            {customer.status === "active" ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}
            {customer.archived ? <Badge tone="neutral">Archived</Badge> : null}
          </span>
        }
        description={person && customer.company_name ? customer.company_name : undefined}
        actions={
          canWrite ? (
            <>
              {!editing ? (
                <Button
                  ref={editButton}
                  size="sm"
                  variant="secondary"
                  aria-controls="customer-edit-card"
                  aria-expanded={false}
                  onClick={() => {
                    setEditing(true);
                    // The form opens above the fold's content: take the keyboard to its first field.
                    requestAnimationFrame(() =>
                      document.querySelector<HTMLElement>("#customer-edit-card input")?.focus(),
                    );
                  }}
                >
                  Edit
                </Button>
              ) : null}
              <ArchiveButton
                kind="customer"
                id={customer.id}
                name={customerName(customer)}
                archived={Boolean(customer.archived)}
              />
            </>
          ) : undefined
        }
      />

      {outcome ? (
        <SaveOutcome
          className="mb-4"
          kind="customer"
          showLink={false}
          result={customerSaveOutcome(outcome)}
          onDismiss={() => setOutcome(null)}
        />
      ) : null}

      <CustomerGlance customerId={customer.id} />

      {editing && canWrite ? (
        <div id="customer-edit-card" className="mb-4">
          <EditCard kind="customer">
            <CustomerForm
              key={customer.id}
              customer={customer}
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
          <ActivityTimeline kind="customer" id={customer.id} canWrite={canWrite} />
        </div>
        <div className="min-w-0 lg:mt-4">
          <FactsCard kind="customer" listClassName="grid grid-cols-2 gap-4">
            <Fact label="Email" className="col-span-2">
              <ContactLink scheme="mailto" value={customer.email} />
            </Fact>
            <Fact label="Phone">
              <ContactLink scheme="tel" value={customer.phone} />
            </Fact>
            <Fact label="Company">{customer.company_name ?? "—"}</Fact>
            <Fact label="Property address">
              <Address lines={property} testId="property-address" />
            </Fact>
            <Fact label="Billing address">
              {!billingKnown ? (
                <span className="text-slate-500">Not available</span>
              ) : (
                <>
                  <Address
                    lines={customer.billing_same_as_property ? property : addressLines(billingOf(customer))}
                    testId="billing-address"
                  />
                  {customer.billing_same_as_property ? (
                    <span className="mt-1 block text-xs text-slate-500">Same as property</span>
                  ) : null}
                </>
              )}
            </Fact>
            <Fact label="Auto-pay">{yesNo(customer.is_auto_pay)}</Fact>
            <Fact label="Payment method on file">{yesNo(customer.has_payment_method)}</Fact>
            {customer.service_frequency !== undefined || customer.service_type !== undefined ? (
              <>
                <Fact label="Service frequency">{customer.service_frequency ?? "—"}</Fact>
                <Fact label="Service type">{customer.service_type ?? "—"}</Fact>
              </>
            ) : null}
            <Fact label="Source">{customer.source ?? "—"}</Fact>
            <Fact label="Customer since">{formatDate(customer.created_at)}</Fact>
            {customer.lead_id ? (
              <Fact label="From lead">
                <LeadLink id={customer.lead_id} />
              </Fact>
            ) : null}
            {customer.archived ? <Fact label="Archived">{formatDate(customer.archived_at)}</Fact> : null}
            <Fact label="Tags" className="col-span-2">
              <span data-testid="customer-tags">
                <TagList tags={customer.tags} />
              </span>
            </Fact>
            {customer.notes ? (
              <Fact label="Notes" className="col-span-2">
                <span className="whitespace-pre-line">{customer.notes}</span>
              </Fact>
            ) : null}
          </FactsCard>
        </div>
      </div>
      <CustomerMoney customerId={customer.id} />
      <RecordIdLine kind="customer" id={customer.id}>
        {" · "}
        <Link href="/customers" className="text-brand-700 underline">
          All customers
        </Link>
      </RecordIdLine>
    </div>
  );
}

"use client";

import Link from "next/link";
import { useState } from "react";
import { TagList } from "@/components/data-table/cells";
import { SaveOutcome } from "@/components/leads/save-outcome";
import { PageHeader } from "@/components/shell/page-header";
import { Badge, Card, CardBody, CardHeader, ErrorState, LoadingBlock } from "@/components/ui";
import { formatDate } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import { type CustomerRecord, type CustomerSaveResult, useCustomer } from "@/lib/query/customers";
import { useSession } from "@/lib/query/session";
import { CustomerForm } from "./customer-form";
import { customerName } from "./customer-options";

interface AddressParts {
  street1?: string | null;
  street2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: string | null;
}

function addressLines(a: AddressParts): string[] {
  const cityLine = [a.city, [a.state, a.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [a.street1, a.street2, cityLine, a.country].filter((line): line is string => Boolean(line));
}

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

function Fact({ label, children, wide }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "col-span-2 min-w-0" : "min-w-0"}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function Address({ lines, testId }: { lines: string[]; testId: string }) {
  return (
    <address className="not-italic" data-testid={testId}>
      {lines.length > 0
        ? lines.map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))
        : "—"}
    </address>
  );
}

const yesNo = (value: boolean | undefined) =>
  value === undefined ? "—" : value ? <Badge tone="success">Yes</Badge> : <Badge>No</Badge>;

/** /customers/[id]: the customer's facts (address, billing, auto-pay, payment method) and edit form. */
export function CustomerDetail({ id }: { id: string }) {
  const query = useCustomer(id);
  const { data: session } = useSession();
  const canWrite = session?.scopes.includes("customers:write") ?? false;
  const [outcome, setOutcome] = useState<CustomerSaveResult | null>(null);
  const back = { href: "/customers", label: "All customers" };

  if (query.isPending) {
    return (
      <div>
        <PageHeader title="Customer" back={back} />
        <LoadingBlock label="Loading customer" />
      </div>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ApiClientError && query.error.status === 404;
    return (
      <div>
        <PageHeader title="Customer" back={back} />
        <Card>
          <ErrorState
            title={notFound ? "Customer not found" : "Could not load this customer"}
            error={notFound ? undefined : query.error}
            onRetry={notFound ? undefined : () => void query.refetch()}
          />
        </Card>
      </div>
    );
  }

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
          </span>
        }
        description={person && customer.company_name ? customer.company_name : undefined}
      />

      {outcome ? (
        <SaveOutcome
          className="mb-4"
          kind="customer"
          showLink={false}
          result={{
            ...outcome,
            id: outcome.customer.id,
            name: customerName(outcome.customer),
            tags: outcome.customer.tags,
          }}
          onDismiss={() => setOutcome(null)}
        />
      ) : null}

      <div className={canWrite ? "grid gap-4 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]" : "max-w-3xl"}>
        <Card aria-labelledby="customer-facts" className="self-start">
          <CardHeader id="customer-facts" title="Details" />
          <CardBody>
            <dl className="grid grid-cols-2 gap-4">
              <Fact label="Email" wide>
                {customer.email ? (
                  <a className="text-brand-700 hover:underline" href={`mailto:${customer.email}`}>
                    {customer.email}
                  </a>
                ) : (
                  "—"
                )}
              </Fact>
              <Fact label="Phone">
                {customer.phone ? (
                  <a className="text-brand-700 hover:underline" href={`tel:${customer.phone}`}>
                    {customer.phone}
                  </a>
                ) : (
                  "—"
                )}
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
              <Fact label="Tags" wide>
                <span data-testid="customer-tags">
                  <TagList tags={customer.tags} />
                </span>
              </Fact>
              {customer.notes ? (
                <Fact label="Notes" wide>
                  <span className="whitespace-pre-line">{customer.notes}</span>
                </Fact>
              ) : null}
            </dl>
          </CardBody>
        </Card>

        {canWrite ? (
          <Card aria-labelledby="customer-edit">
            <CardHeader
              id="customer-edit"
              title="Edit customer"
              description="Saved through the same create-or-update endpoint your integrations use."
            />
            <CardBody>
              <CustomerForm key={customer.id} customer={customer} onSaved={setOutcome} />
            </CardBody>
          </Card>
        ) : null}
      </div>
      <p className="mt-4 text-xs text-slate-500">
        Customer id <code className="rounded bg-slate-100 px-1">{customer.id}</code> ·{" "}
        <Link href="/customers" className="text-brand-700 hover:underline">
          All customers
        </Link>
      </p>
    </div>
  );
}

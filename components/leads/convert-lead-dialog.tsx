"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { CustomerForm } from "@/components/customers/customer-form";
import { customerName } from "@/lib/values/customer-name";
import { AddressLines, addressLines } from "@/components/records/record-detail";
import { recordHref } from "@/components/records/record-kind";
import { Button, Dialog, useToast } from "@/components/ui";
import { type ConvertLeadBody, dryRunConvertLead, useConvertLead } from "@/lib/query/activity";
import type { Lead } from "@/lib/query/leads";
import type { CustomerDetail } from "@/lib/schemas/customers";
import { splitLeadName } from "@/lib/schemas/lead-convert";

// "Convert to customer" (E4): a dry run first, so when the lead matches an existing customer the
// user can link it or create a new one; then the customer's page opens.

/** The form's starting values: what the API carries over from the lead (customerOfLead). */
export function customerValuesOfLead(lead: Lead) {
  return {
    ...splitLeadName(lead.name),
    email: lead.email ?? "",
    phone: lead.phone ?? "",
    property_street1: lead.property_street1 ?? "",
    property_street2: lead.property_street2 ?? "",
    property_city: lead.property_city ?? "",
    property_state: lead.property_state ?? "",
    property_zip: lead.property_zip ?? "",
    property_country: lead.property_country ?? "",
    notes: lead.notes ?? "",
    source: lead.lead_source ?? "",
  };
}

type Choice = "link" | "new" | "back";

interface PendingMatch {
  existing: CustomerDetail;
  matchedOn: "phone" | "email" | "id";
  choose: (choice: Choice) => void;
}

export function ConvertLeadDialog({ lead, onClose }: { lead: Lead; onClose: () => void }) {
  const router = useRouter();
  const { notify } = useToast();
  const convert = useConvertLead();
  const [pending, setPending] = useState<PendingMatch | null>(null);
  const [busy, setBusy] = useState<Choice | null>(null);
  const leadName = lead.name || "the lead";

  async function run(body: ConvertLeadBody) {
    const answer = await convert.mutateAsync({ id: lead.id, body });
    const customer = answer.data;
    notify({
      title:
        answer.matched_on === null
          ? `Customer created from ${leadName}`
          : `${leadName} linked to ${customerName(customer) || "the customer"}`,
    });
    onClose();
    router.push(recordHref("customer", customer.id));
  }

  /** The form's save: a dry run, then the conversion, or the choice when a customer matches. */
  async function save(body: ConvertLeadBody) {
    const dry = await dryRunConvertLead(lead.id, body);
    if (dry.matched_on === null || dry.existing === null) return run(body);
    const existing = dry.existing;
    const matchedOn = dry.matched_on;
    return new Promise<void>((resolve, reject) => {
      const choose = async (choice: Choice) => {
        if (choice === "back") {
          setPending(null);
          return resolve();
        }
        setBusy(choice);
        try {
          await run(choice === "new" ? { ...body, match: "none" } : body);
          resolve();
        } catch (error) {
          reject(error);
        } finally {
          setBusy(null);
          setPending(null);
        }
      };
      setPending({ existing, matchedOn, choose: (c) => void choose(c) });
    });
  }

  return (
    <Dialog
      open
      size="lg"
      onClose={onClose}
      title="Convert to customer"
      description={`A customer made from ${leadName}: check the fields, change what should differ.`}
    >
      <CustomerForm
        onCancel={onClose}
        convert={{
          values: customerValuesOfLead(lead),
          tags: lead.tags ?? [],
          save,
          submitLabel: "Convert to customer",
        }}
      />
      {pending ? <MatchDialog {...pending} busy={busy} /> : null}
    </Dialog>
  );
}

const MATCH_WORDS = { id: "lead", phone: "phone number", email: "email address" } as const;

/** A customer matches the lead: link to it as it is, or create a new customer. */
function MatchDialog({ existing, matchedOn, choose, busy }: PendingMatch & { busy: Choice | null }) {
  const name = customerName(existing) || "this customer";
  const already = matchedOn === "id";
  return (
    <Dialog
      open
      onClose={() => (busy ? undefined : choose("back"))}
      title={
        already
          ? "This lead is already a customer"
          : `A customer with this ${MATCH_WORDS[matchedOn]} already exists`
      }
      description={
        already
          ? `The lead was converted to ${name}.`
          : `Link the lead to ${name} as it is (the form's fields are not applied to it), or create a new customer.`
      }
      footer={
        <>
          <Button variant="ghost" onClick={() => choose("back")} disabled={busy !== null}>
            Go back
          </Button>
          {already ? null : (
            <Button variant="secondary" onClick={() => choose("new")} loading={busy === "new"}>
              Create a new customer
            </Button>
          )}
          <Button onClick={() => choose("link")} loading={busy === "link"} data-autofocus>
            {already ? `Open ${name}` : `Link to ${name}`}
          </Button>
        </>
      }
    >
      <dl className="grid gap-3 text-sm sm:grid-cols-2" data-testid="convert-match">
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Customer</dt>
          <dd className="text-slate-900">{name}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Phone</dt>
          <dd className="text-slate-900">{existing.phone || "—"}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Email</dt>
          <dd className="text-slate-900 [overflow-wrap:anywhere]">{existing.email || "—"}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Property address</dt>
          <dd className="text-slate-900">
            <AddressLines lines={addressLines(existing.address)} />
          </dd>
        </div>
      </dl>
    </Dialog>
  );
}

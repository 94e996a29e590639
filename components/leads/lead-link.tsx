"use client";

import Link from "next/link";
import { recordHref } from "@/components/records/record-kind";
import { useLead } from "@/lib/query/leads";
import { useCan } from "@/lib/query/session";

/**
 * The lead a customer was converted from, as a link by its name. A role that cannot read leads
 * (a technician) sees that there is one, without a link it could not open.
 */
export function LeadLink({ id }: { id: string }) {
  const canRead = useCan("leads:read");
  return canRead ? <ReadableLeadLink id={id} /> : <span className="text-slate-600">A lead</span>;
}

function ReadableLeadLink({ id }: { id: string }) {
  const lead = useLead(id);
  return (
    <Link href={recordHref("lead", id)} className="text-brand-700 underline" data-testid="customer-lead-link">
      {lead.data ? lead.data.name || "(no name)" : "Open the lead"}
    </Link>
  );
}

"use client";

import { RecordList, useRecordListView } from "@/components/records/record-list";
import { NotAllowed } from "@/components/shell/not-allowed";
import { useLeads } from "@/lib/query/leads";
import { useSession } from "@/lib/query/session";
import { leadColumns } from "./lead-columns";
import { LeadForm, leadSaveOutcome } from "./lead-form";
import { LEAD_STAGES } from "./lead-options";

/** /leads: filters, the leads table and "New lead", all state in the URL. */
export function LeadsView() {
  const { data: session } = useSession();
  // Technicians have no leads:read (contract section 9); the API would answer 403 anyway.
  if (session && !session.scopes.includes("leads:read")) return <NotAllowed what="Leads" />;
  return <LeadsList canWrite={session?.scopes.includes("leads:write") ?? false} />;
}

function LeadsList({ canWrite }: { canWrite: boolean }) {
  const view = useRecordListView("stage");
  const stage = view.filter;
  const query = useLeads({ ...view.params, stage });

  // Stage is a free string: keep a stage from a shared link selectable even if not in our list.
  const stageOptions = [
    ...LEAD_STAGES,
    ...(stage && !LEAD_STAGES.some((s) => s.value === stage) ? [{ value: stage, label: stage }] : []),
  ];

  return (
    <RecordList
      kind="lead"
      description="Your sales pipeline: prospects from the website, referrals and your other tools."
      canWrite={canWrite}
      view={view}
      query={query}
      columns={leadColumns}
      searchPlaceholder="Name, email or phone"
      filter={{ label: "Stage", placeholder: "All stages", value: stage, options: stageOptions }}
      outcomeOf={leadSaveOutcome}
      renderForm={(props) => <LeadForm {...props} />}
    />
  );
}

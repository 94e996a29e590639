import "server-only";
export { listLeads, leadFilter, leadListQueries } from "./list-leads";
export { getLeadOrThrow } from "./get-lead";
export { dryRunUpsertLead, upsertLead } from "./upsert-lead";
export { toLead, toLeadUpsertResponse, type LeadContext } from "./lead-record";
export { leadStageTotals, stageTotalsFromCounters } from "./stage-totals";

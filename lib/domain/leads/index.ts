export { listLeads, leadFilter, leadListQueries } from "./list-leads";
export { getLeadOrThrow } from "./get-lead";
export { upsertLead } from "./upsert-lead";
export { toLead, toLeadUpsertResponse, type LeadContext } from "./lead-record";

"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import { useHasScope } from "@/lib/query/session";
import { type CustomerRecord, customerKeys, withKnownExtras } from "@/lib/query/customers";
import { type Lead, leadKeys } from "@/lib/query/leads";
import type { ActivityEntry, AddNoteResponse, ListActivityResponse } from "@/lib/schemas/activity";
import type { ActivityRecordType } from "@/lib/values/enums";
import type { CustomerDetail } from "@/lib/schemas/customers";
import type { z } from "zod";
import type {
  ConvertLeadDryRunResponse,
  ConvertLeadResponse,
  convertLeadBodySchema,
} from "@/lib/schemas/lead-convert";

// A record's activity (E3), its notes, and the page actions that write activity; every save on a
// record's page invalidates `activityKeys.record` so the timeline shows it.

export type { ActivityEntry, ActivityRecordType };
/** The body of POST /leads/{id}/convert as the dialog sends it. */
export type ConvertLeadBody = z.input<typeof convertLeadBodySchema>;

const PATHS: Record<ActivityRecordType, string> = { lead: "/leads", customer: "/customers" };
const recordPath = (type: ActivityRecordType, id: string) => `${PATHS[type]}/${encodeURIComponent(id)}`;

/** Entries per page of the timeline ("Show older" loads the next). */
export const ACTIVITY_PAGE = 20;

export const activityKeys = {
  all: ["activity"] as const,
  record: (type: ActivityRecordType, id: string) => [...activityKeys.all, type, id] as const,
};

/** The record's activity, newest first, a page at a time. */
export function useActivity(type: ActivityRecordType, id: string) {
  return useInfiniteQuery({
    queryKey: activityKeys.record(type, id),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<ListActivityResponse>(`${recordPath(type, id)}/activity`, {
        query: { page: pageParam, limit: ACTIVITY_PAGE },
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.pagination.has_more ? all.length + 1 : undefined),
  });
}

/** Refreshes a record's timeline (after any save on its page). */
export function useInvalidateActivity() {
  const queryClient = useQueryClient();
  return (type: ActivityRecordType, id: string) =>
    queryClient.invalidateQueries({ queryKey: activityKeys.record(type, id) });
}

/** Adds a note (POST …/notes); the timeline then shows it. */
export function useAddNote(type: ActivityRecordType, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      apiFetch<AddNoteResponse>(`${recordPath(type, id)}/notes`, { method: "POST", body: { body } }).then(
        (r) => r.data,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: activityKeys.record(type, id) }),
  });
}

/**
 * Archives or unarchives a record (POST …/archive, …/unarchive). The answer is the record as its
 * page shows it: it replaces the cached one; lists and the timeline are refreshed.
 */
export function useSetArchived(type: ActivityRecordType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, archived }: { id: string; archived: boolean }) =>
      apiFetch<{ data: Lead | CustomerDetail }>(
        `${recordPath(type, id)}/${archived ? "archive" : "unarchive"}`,
        {
          method: "POST",
        },
      ).then((r) => r.data),
    onSuccess: async (record, { id }) => {
      if (type === "lead") {
        queryClient.setQueryData(leadKeys.detail(id), record);
        await queryClient.invalidateQueries({ queryKey: leadKeys.lists() });
      } else {
        queryClient.setQueryData<CustomerRecord>(customerKeys.detail(id), (known) =>
          withKnownExtras(record as CustomerDetail, known),
        );
        await queryClient.invalidateQueries({ queryKey: customerKeys.lists() });
      }
      await queryClient.invalidateQueries({ queryKey: activityKeys.record(type, id) });
    },
  });
}

/** Whether the signed-in user may convert leads: it writes a lead and makes a customer. */
export function useCanConvertLead(): boolean {
  const leads = useHasScope("leads:write");
  const customers = useHasScope("customers:write");
  return leads && customers;
}

/** What converting the lead would do (?dry_run=true): the customer it would be, and any match. */
export function dryRunConvertLead(id: string, body: ConvertLeadBody): Promise<ConvertLeadDryRunResponse> {
  return apiFetch<ConvertLeadDryRunResponse>(`${recordPath("lead", id)}/convert`, {
    method: "POST",
    body,
    query: { dry_run: true },
  });
}

/** Converts the lead (POST /leads/{id}/convert): a new customer, or a matching one linked. */
export function useConvertLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ConvertLeadBody }) =>
      apiFetch<ConvertLeadResponse>(`${recordPath("lead", id)}/convert`, { method: "POST", body }),
    onSuccess: async (answer, { id }) => {
      queryClient.setQueryData(leadKeys.detail(id), answer.lead);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: leadKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: customerKeys.all }),
        queryClient.invalidateQueries({ queryKey: activityKeys.all }),
      ]);
    },
  });
}

"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/lib/query/activity";
import { apiFetch } from "@/lib/query/api-client";
import type { z } from "zod";
import type {
  BulkCustomersBody,
  BulkCustomersResponse,
  UndoBulkCustomersResponse,
} from "@/lib/schemas/customer-bulk";
import {
  CUSTOMER_MESSAGES,
  type Customer,
  type CustomerDetail,
  type CustomerDryRunResponse,
  type CustomerUpsertResponse,
  type GetCustomerResponse,
  type ListCustomersResponse,
  type upsertCustomerBodySchema,
} from "@/lib/schemas/customers";

/**
 * TanStack Query hooks for the customer pages, over `/api/customers`. Query keys hold every
 * filter, so each view is cached on its own.
 */

export type { Customer, CustomerUpsertResponse };
export type CustomerStatus = Customer["status"];

/**
 * A customer as its page shows it: the get-by-id record, plus the billing and service fields
 * when the API includes them (interface.md lists only the property `address` for get-by-id).
 */
export type CustomerRecord = CustomerDetail &
  Partial<
    Pick<
      CustomerUpsertResponse,
      | "billing_street1"
      | "billing_street2"
      | "billing_city"
      | "billing_state"
      | "billing_zip"
      | "billing_country"
      | "billing_same_as_property"
      | "service_frequency"
      | "service_type"
    >
  >;

/** The body of POST /api/customers as the form sends it (before the schema's transforms). */
export type CustomerUpsertBody = z.input<typeof upsertCustomerBodySchema>;

export interface CustomerListParams {
  page: number;
  limit: number;
  search?: string;
  status?: CustomerStatus | "";
  /** Comma-separated; a customer matches if it has any of them. */
  tags?: string;
  archived?: boolean;
  /** The API's `sort`: comma-separated fields, `-` for descending; empty: newest first. */
  sort?: string;
}

export const customerKeys = {
  all: ["customers"] as const,
  lists: () => [...customerKeys.all, "list"] as const,
  list: (params: CustomerListParams) => [...customerKeys.lists(), params] as const,
  details: () => [...customerKeys.all, "detail"] as const,
  detail: (id: string) => [...customerKeys.details(), id] as const,
};

export function useCustomers(params: CustomerListParams) {
  return useQuery({
    queryKey: customerKeys.list(params),
    queryFn: ({ signal }) =>
      apiFetch<ListCustomersResponse>("/customers", {
        query: {
          page: params.page,
          limit: params.limit,
          search: params.search?.trim() || undefined,
          status: params.status || undefined,
          tags: params.tags || undefined,
          archived: params.archived ? true : undefined,
          sort: params.sort || undefined,
        },
        signal,
      }),
    // Keep the previous rows on screen while the next page or filter loads.
    placeholderData: keepPreviousData,
  });
}

export function useCustomer(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: customerKeys.detail(id),
    queryFn: async ({ signal }) => {
      const { data } = await apiFetch<GetCustomerResponse>(`/customers/${encodeURIComponent(id)}`, {
        signal,
      });
      return withKnownExtras(data, queryClient.getQueryData<CustomerRecord>(customerKeys.detail(id)));
    },
  });
}

export interface CustomerSaveResult {
  customer: CustomerUpsertResponse;
  /** true: a new customer; false: an existing customer was updated. */
  created: boolean;
  /** A "new customer" save that landed on an existing customer, matched by phone or email. */
  matchedExisting: boolean;
}

/** Create-or-update through POST /api/customers; refreshes the customer's page and every list. */
export function useSaveCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CustomerUpsertBody): Promise<CustomerSaveResult> => {
      const customer = await apiFetch<CustomerUpsertResponse>("/customers", { method: "POST", body });
      // The contract fixes the messages: "Customer created" / "Customer updated".
      const created = customer.message === CUSTOMER_MESSAGES.created;
      return { customer, created, matchedExisting: !created && !body.id };
    },
    onSuccess: async ({ customer, created }) => {
      // The upsert answer is the server's own view of the record, so the customer's page can
      // show it at once (and, unlike get-by-id, it carries the billing and service fields).
      queryClient.setQueryData<CustomerRecord>(customerKeys.detail(customer.id), (old) =>
        recordFromUpsert(customer, old, created),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: customerKeys.lists() }),
        // The customer's timeline shows the save.
        queryClient.invalidateQueries({ queryKey: activityKeys.record("customer", customer.id) }),
      ]);
    },
  });
}

/**
 * POST /api/customers/bulk: archive or unarchive the listed customers. Its answer's id
 * undoes it (useUndoBulkCustomers).
 */
export function useBulkArchiveCustomers() {
  const refresh = useRefreshCustomers();
  return useMutation({
    mutationFn: (body: BulkCustomersBody) =>
      apiFetch<BulkCustomersResponse>("/customers/bulk", { method: "POST", body }),
    onSuccess: refresh,
  });
}

/** POST /api/customers/bulk/{id}/undo: the server restores what the bulk change replaced. */
export function useUndoBulkCustomers() {
  const refresh = useRefreshCustomers();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<UndoBulkCustomersResponse>(`/customers/bulk/${encodeURIComponent(id)}/undo`, {
        method: "POST",
      }),
    onSuccess: refresh,
  });
}

/** Each customer's page and timeline show a bulk change too. */
function useRefreshCustomers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: customerKeys.all }),
      queryClient.invalidateQueries({ queryKey: activityKeys.all }),
    ]);
}

/** What POST /api/customers would do with this body (?dry_run=true): nothing is written. */
export function dryRunCustomer(body: CustomerUpsertBody): Promise<CustomerDryRunResponse> {
  return apiFetch<CustomerDryRunResponse>("/customers", { method: "POST", body, query: { dry_run: true } });
}

const EXTRA_FIELDS = [
  "billing_street1",
  "billing_street2",
  "billing_city",
  "billing_state",
  "billing_zip",
  "billing_country",
  "billing_same_as_property",
  "service_frequency",
  "service_type",
] as const;

/** A get-by-id record, with the billing and service fields this tab already knows when it does not send them. */
export function withKnownExtras(data: CustomerDetail, known: CustomerRecord | undefined): CustomerRecord {
  return { ...pickExtras(known), ...data } as CustomerRecord;
}

function pickExtras(record: Partial<CustomerRecord> | undefined): Partial<CustomerRecord> {
  if (!record || record.billing_same_as_property === undefined) return {};
  const out: Record<string, unknown> = {};
  for (const field of EXTRA_FIELDS) if (record[field] !== undefined) out[field] = record[field];
  return out as Partial<CustomerRecord>;
}

/**
 * The get-by-id shape from an upsert answer. Payment facts are not in it, so they are kept from
 * the cache; an updated customer not in the cache is left to load.
 */
function recordFromUpsert(
  response: CustomerUpsertResponse,
  old: CustomerRecord | undefined,
  created: boolean,
): CustomerRecord | undefined {
  if (!old && !created) return undefined;
  const extras: Record<string, unknown> = {};
  for (const field of EXTRA_FIELDS) extras[field] = response[field];
  return {
    id: response.id,
    first_name: response.first_name,
    last_name: response.last_name,
    company_name: response.company_name,
    email: response.email,
    phone: response.phone,
    notes: response.notes,
    source: response.source,
    address: {
      street1: response.property_street1 ?? "",
      ...(response.property_street2 ? { street2: response.property_street2 } : {}),
      city: response.property_city ?? "",
      state: response.property_state ?? "",
      zip: response.property_zip ?? "",
      country: response.property_country ?? "",
    },
    status: response.status,
    tags: response.tags,
    created_at: response.created_at,
    ...(old?.location ? { location: old.location } : {}),
    is_auto_pay: old?.is_auto_pay ?? false,
    has_payment_method: old?.has_payment_method ?? false,
    ...extras,
  } as CustomerRecord;
}

"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import type { z } from "zod";
import {
  CUSTOMER_MESSAGES,
  type Customer,
  type CustomerDetail,
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
        },
        signal,
      }),
    // Keep the previous rows on screen while the next page or filter loads.
    placeholderData: keepPreviousData,
  });
}

export function useCustomer(id: string) {
  return useQuery({
    queryKey: customerKeys.detail(id),
    queryFn: ({ signal }) =>
      apiFetch<GetCustomerResponse>(`/customers/${encodeURIComponent(id)}`, { signal }).then(
        (r) => r.data as CustomerRecord,
      ),
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
    onSuccess: async ({ customer }) => {
      // The upsert answer has a different shape than the record (no `address`, no payment
      // flags): refetch the record rather than guess it.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: customerKeys.detail(customer.id) }),
        queryClient.invalidateQueries({ queryKey: customerKeys.lists() }),
      ]);
    },
  });
}

"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "@/lib/query/api-client";
import type {
  CreatedWebhookEndpoint,
  RotatedWebhookSecret,
  UpsertWebhookBody,
  WebhookEndpoint,
  WebhookEndpointList,
} from "@/lib/schemas/webhooks";
import type { deliveryQueuedSchema, webhookDeliveriesResponseSchema } from "@/lib/schemas/webhook-deliveries";

export type WebhookDeliveries = z.output<typeof webhookDeliveriesResponseSchema>;
export type WebhookDelivery = WebhookDeliveries["data"][number];
export type WebhookDeliveryQueued = z.output<typeof deliveryQueuedSchema>;

export const webhookKeys = {
  all: ["settings", "webhooks"] as const,
  deliveries: (id: string, page: number) => ["settings", "webhooks", id, "deliveries", page] as const,
};

const endpointPath = (id: string) => `/settings/webhooks/${encodeURIComponent(id)}`;

export function useWebhookEndpoints(enabled = true) {
  return useQuery({
    queryKey: webhookKeys.all,
    queryFn: ({ signal }) => apiFetch<WebhookEndpointList>("/settings/webhooks", { signal }),
    enabled,
  });
}

/** Creates (no id: the answer carries the secret once) or updates an endpoint. */
export function useUpsertWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: UpsertWebhookBody) =>
      apiFetch<WebhookEndpoint | CreatedWebhookEndpoint>("/settings/webhooks", {
        method: "POST",
        body: input,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(endpointPath(id), { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useRotateWebhookSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<RotatedWebhookSecret>(`${endpointPath(id)}/rotate-secret`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useSendTestWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<WebhookDeliveryQueued>(`${endpointPath(id)}/test`, { method: "POST" }),
    onSuccess: (_data, id) => client.invalidateQueries({ queryKey: [...webhookKeys.all, id] }),
  });
}

export function useWebhookDeliveries(id: string, page: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, page),
    queryFn: ({ signal }) =>
      apiFetch<WebhookDeliveries>(`${endpointPath(id)}/deliveries`, { query: { page }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useResendWebhookDelivery(endpointId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      apiFetch<WebhookDeliveryQueued>(
        `${endpointPath(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
        { method: "POST" },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: [...webhookKeys.all, endpointId] }),
  });
}

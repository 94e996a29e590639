"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import type {
  ApiKeyList,
  ApiKeyRecord,
  CreateApiKeyBody,
  CreatedApiKey,
  CreateUserBody,
  UserList,
  UserRecord,
} from "@/lib/schemas/settings";
import type {
  CreatedInvite,
  CreateInviteBody,
  InviteList,
  IssuedPasswordReset,
} from "@/lib/schemas/accounts";

export const settingsKeys = {
  apiKeys: ["settings", "api-keys"] as const,
  users: ["settings", "users"] as const,
};

export function useApiKeys(enabled = true) {
  return useQuery({
    queryKey: settingsKeys.apiKeys,
    queryFn: ({ signal }) => apiFetch<ApiKeyList>("/settings/api-keys", { signal }),
    enabled,
  });
}

/** Input of the create form: the daily limit may be left to the server's default. */
export type CreateApiKeyInput = Omit<CreateApiKeyBody, "daily_limit"> & { daily_limit?: number };

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) =>
      apiFetch<CreatedApiKey>("/settings/api-keys", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<ApiKeyRecord>(`/settings/api-keys/${encodeURIComponent(id)}/revoke`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.apiKeys }),
  });
}

export function useUsers(enabled = true) {
  return useQuery({
    queryKey: settingsKeys.users,
    queryFn: ({ signal }) => apiFetch<UserList>("/settings/users", { signal }),
    enabled,
  });
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateUserBody) =>
      apiFetch<UserRecord>("/settings/users", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.users }),
  });
}

export function useSetUserActive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      apiFetch<UserRecord>(
        `/settings/users/${encodeURIComponent(id)}/${active ? "activate" : "deactivate"}`,
        {
          method: "POST",
        },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.users }),
  });
}

// ---- Invites and password reset links (issue #56) ----------------------------------------

export const inviteKeys = { all: ["settings", "invites"] as const };

export function useInvites(enabled = true) {
  return useQuery({
    queryKey: inviteKeys.all,
    queryFn: ({ signal }) => apiFetch<InviteList>("/settings/invites", { signal }),
    enabled,
  });
}

export function useCreateInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateInviteBody) =>
      apiFetch<CreatedInvite>("/settings/invites", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: inviteKeys.all }),
  });
}

export function useRevokeInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<null>(`/settings/invites/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: inviteKeys.all }),
  });
}

export function useIssuePasswordReset() {
  return useMutation({
    mutationFn: (userId: string) =>
      apiFetch<IssuedPasswordReset>(`/settings/users/${encodeURIComponent(userId)}/password-reset`, {
        method: "POST",
      }),
  });
}

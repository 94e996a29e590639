"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import { downloadCsvFrom } from "@/lib/query/reports";
import { settingsKeys } from "@/lib/query/settings";
import type { AuditLogResponse } from "@/lib/schemas/audit";
import type { SessionList } from "@/lib/schemas/sessions";
import type { UserRecord } from "@/lib/schemas/settings";
import type { UserRole } from "@/lib/values/roles";

export const accountKeys = {
  sessions: ["auth", "sessions"] as const,
  auditLog: ["settings", "audit-log"] as const,
};

/** The audit log's filters as the settings page holds them (empty: no filter). */
export interface AuditLogFilters {
  actor: string;
  kind: string;
  from: string;
  to: string;
}

const auditQuery = (filters: AuditLogFilters) => ({
  actor: filters.actor || undefined,
  kind: filters.kind || undefined,
  from: filters.from || undefined,
  to: filters.to || undefined,
});

/** A settings change also adds an audit entry: both lists refresh. */
function useRefreshUsersAndLog() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: settingsKeys.users }),
      client.invalidateQueries({ queryKey: accountKeys.auditLog }),
    ]);
}

export function useChangeUserRole() {
  const refresh = useRefreshUsersAndLog();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: UserRole }) =>
      apiFetch<UserRecord>("/settings/users", { method: "POST", body: { id, role } }),
    onSuccess: refresh,
  });
}

export function useSignOutUser() {
  const refresh = useRefreshUsersAndLog();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<null>(`/settings/users/${encodeURIComponent(id)}/sign-out`, { method: "POST" }),
    onSuccess: refresh,
  });
}

export function useSessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: ({ signal }) => apiFetch<SessionList>("/auth/sessions", { signal }),
  });
}

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<null>(`/auth/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ ended: number }>("/auth/sessions", { method: "DELETE", query: { others: "true" } }),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export const AUDIT_PAGE_SIZE = 25;

export function useAuditLog(filters: AuditLogFilters, page: number) {
  return useQuery({
    queryKey: [...accountKeys.auditLog, filters, page],
    queryFn: ({ signal }) =>
      apiFetch<AuditLogResponse>("/settings/audit-log", {
        signal,
        query: { ...auditQuery(filters), page, limit: AUDIT_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

export function downloadAuditLog(filters: AuditLogFilters): Promise<void> {
  return downloadCsvFrom("/settings/audit-log/export", auditQuery(filters), "audit-log");
}

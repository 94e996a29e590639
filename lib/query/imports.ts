"use client";

import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { can, sessionCaller } from "@/lib/auth/permissions";
import { apiFetch } from "@/lib/query/api-client";
import { downloadCsvFrom } from "@/lib/query/reports";
import { useSession } from "@/lib/query/session";
import type {
  ImportList,
  ImportProblemsResponse,
  ImportResponse,
  IMPORT_TYPE_VALUES,
} from "@/lib/schemas/imports";

export type { ImportList, ImportResponse };
export type ImportType = (typeof IMPORT_TYPE_VALUES)[number];
/** Per column of the file: the field it fills, or null (ignored). */
export type ImportMapping = (string | null)[];

export const IMPORT_TYPES: readonly ImportType[] = ["leads", "customers"];

export const importKeys = {
  all: ["imports"] as const,
  list: ["imports", "list"] as const,
  one: (id: string) => ["imports", "one", id] as const,
  problems: (id: string, page: number, limit: number) =>
    ["imports", "one", id, "problems", page, limit] as const,
};

/** Statuses during which a job works on the import: the page polls them. */
export const RUNNING_STATUSES: readonly ImportResponse["status"][] = ["checking", "importing"];
export const isRunning = (status: ImportResponse["status"]) => RUNNING_STATUSES.includes(status);

/** How often a running import's progress is read. */
const POLL_MS = 1000;

const importPath = (id: string) => `/imports/${encodeURIComponent(id)}`;

/** The company's newest imports (the page looks for a running one after a reload). */
export function useImports(enabled = true) {
  return useQuery({
    queryKey: importKeys.list,
    queryFn: ({ signal }) => apiFetch<ImportList>("/imports", { signal }),
    enabled,
  });
}

/** One import, polled while a dry run or an import runs. */
export function useImport(id: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: importKeys.one(id ?? ""),
    queryFn: async ({ signal }) => {
      const imported = await apiFetch<ImportResponse>(importPath(id!), { signal });
      // The list must not show it running once it has ended (the page resumes a running one).
      patchList(client, imported);
      return imported;
    },
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isRunning(query.state.data.status) ? POLL_MS : false),
    // Polling goes on in a background tab: the user comes back to the current state.
    refetchIntervalInBackground: true,
  });
}

/** The refused rows of the last dry run, by row, a page at a time. */
export function useImportProblems(id: string, page: number, limit: number, enabled = true) {
  return useQuery({
    queryKey: importKeys.problems(id, page, limit),
    queryFn: ({ signal }) =>
      apiFetch<ImportProblemsResponse>(`${importPath(id)}/problems`, { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Keeps the one-import query in step with an answer that carries the import. */
function useStoreImport() {
  const client = useQueryClient();
  return (imported: ImportResponse) => {
    client.setQueryData(importKeys.one(imported.id), imported);
    patchList(client, imported);
    void client.invalidateQueries({ queryKey: importKeys.list });
  };
}

/** Puts an import's latest state into the cached list, if the list holds it. */
function patchList(client: QueryClient, imported: ImportResponse) {
  client.setQueryData<ImportList>(importKeys.list, (list) =>
    list ? { data: list.data.map((other) => (other.id === imported.id ? imported : other)) } : list,
  );
}

/**
 * Uploads a CSV file: the File is the request body, which the browser streams from disk (never
 * read into memory here). The answer is the import with its guessed mapping.
 */
export function useUploadImport() {
  const store = useStoreImport();
  return useMutation({
    mutationFn: ({ type, file }: { type: ImportType; file: File }) =>
      apiFetch<ImportResponse>("/imports", {
        method: "POST",
        query: { type, file_name: file.name },
        file: { data: file, type: "text/csv" },
      }),
    onSuccess: store,
  });
}

/** Starts a dry run with this mapping (202: status `checking`). */
export function useDryRunImport() {
  const store = useStoreImport();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, mapping }: { id: string; mapping: ImportMapping }) =>
      apiFetch<ImportResponse>(`${importPath(id)}/dry-run`, { method: "POST", body: { mapping } }),
    onSuccess: (imported) => {
      store(imported);
      // The problems of an earlier run are gone.
      void client.removeQueries({ queryKey: [...importKeys.one(imported.id), "problems"] });
    },
  });
}

/** Starts the import of a checked file (202: status `importing`). */
export function useStartImport() {
  const store = useStoreImport();
  return useMutation({
    mutationFn: (id: string) => apiFetch<ImportResponse>(`${importPath(id)}/start`, { method: "POST" }),
    onSuccess: store,
  });
}

/** Asks a running dry run or import to stop (nothing is written). */
export function useCancelImport() {
  const store = useStoreImport();
  return useMutation({
    mutationFn: (id: string) => apiFetch<ImportResponse>(`${importPath(id)}/cancel`, { method: "POST" }),
    onSuccess: store,
  });
}

/** Removes an import's staged rows (the user starts over with another file). */
export function useDeleteImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(importPath(id), { method: "DELETE" }),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: importKeys.one(id) });
      void client.invalidateQueries({ queryKey: importKeys.list });
    },
  });
}

/** Downloads the refused rows as uploaded, with their row number and problems (CSV). */
export function downloadRefusedRows(imported: Pick<ImportResponse, "id" | "file_name">): Promise<void> {
  const base = imported.file_name.replace(/\.csv$/i, "") || "import";
  return downloadCsvFrom(`${importPath(imported.id)}/problems/export`, {}, `${base}-refused-rows`);
}

/** The types the signed-in user may import (admins and managers with the type's write scope). */
export function useImportTypes(): ImportType[] {
  const { data: session } = useSession();
  if (!session) return [];
  const caller = sessionCaller(session);
  return IMPORT_TYPES.filter((type) => can(caller, `imports:${type}`));
}

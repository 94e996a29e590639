"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { ToastProvider } from "@/components/ui/toast";
import { ApiClientError } from "@/lib/query/api-client";
import type { SessionInfo } from "@/lib/schemas/session";
import { sessionQueryKey } from "./session";

/**
 * Retries only what may succeed on a second try: network failures, 5xx and 429. A 4xx answer
 * (validation, not found, forbidden, signed out) will not change by asking again.
 */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (error instanceof ApiClientError)
    return error.status === 0 || error.status === 429 || error.status >= 500;
  return false;
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Lists stay fresh for 30 s: switching pages and back does not refetch at once,
        // while mutations invalidate what they change so edits show immediately.
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}

export interface ProvidersProps {
  children: React.ReactNode;
  /** The session the server layout already loaded: the shell renders with it at once. */
  session?: SessionInfo;
}

/** TanStack Query and toasts for the dashboard (one QueryClient per browser tab). */
export function Providers({ children, session }: ProvidersProps) {
  const [client] = useState(() => {
    const queryClient = makeQueryClient();
    if (session) queryClient.setQueryData(sessionQueryKey, session);
    return queryClient;
  });
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}

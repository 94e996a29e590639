"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDateTime, formatRelativeTime } from "@/lib/format";
import { useEndOtherSessions, useEndSession, useSessions } from "@/lib/query/accounts";
import { deviceLabel } from "./device";

/** The signed-in user's sessions: where they are signed in, and a way to end any of them. */
export function SessionsSection() {
  const sessions = useSessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const { notify } = useToast();
  const others = sessions.data?.data.filter((s) => !s.current).length ?? 0;

  return (
    <Card aria-labelledby="sessions-heading">
      <CardHeader
        id="sessions-heading"
        title="Sessions"
        description="Where you are signed in. End a session you do not recognise, then change your password."
        actions={
          others > 0 ? (
            <Button
              variant="secondary"
              loading={endOthers.isPending}
              onClick={() =>
                endOthers.mutate(undefined, {
                  onSuccess: ({ ended }) =>
                    notify({
                      title: `Signed out of ${ended} other session${ended === 1 ? "" : "s"}`,
                    }),
                  onError: (error) =>
                    notify({ tone: "danger", title: "Could not sign out", description: errorMessage(error) }),
                })
              }
            >
              Sign out all other sessions
            </Button>
          ) : null
        }
      />
      {sessions.isPending ? (
        <LoadingBlock label="Loading sessions" />
      ) : sessions.isError ? (
        <ErrorState
          error={sessions.error}
          title="Could not load your sessions"
          onRetry={() => sessions.refetch()}
        />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Your sessions">
          {sessions.data.data.map((session) => {
            const device = deviceLabel(session.user_agent);
            return (
              <li
                key={session.id}
                className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-5"
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    {device}
                    {session.current ? <Badge tone="brand">This device</Badge> : null}
                  </p>
                  <p className="text-sm text-slate-500">
                    {session.ip ?? "Unknown IP"} · Last seen{" "}
                    <time dateTime={session.last_seen_at} title={formatDateTime(session.last_seen_at)}>
                      {formatRelativeTime(session.last_seen_at)}
                    </time>{" "}
                    · Signed in{" "}
                    <time dateTime={session.created_at}>{formatDateTime(session.created_at)}</time>
                  </p>
                </div>
                {session.current ? null : (
                  <Button
                    variant="danger-ghost"
                    size="sm"
                    className="self-start sm:self-auto"
                    aria-label={`End session: ${device}, ${session.ip ?? "unknown IP"}`}
                    disabled={end.isPending}
                    onClick={() =>
                      end.mutate(session.id, {
                        onSuccess: () => notify({ title: "Session ended", description: device }),
                        onError: (error) =>
                          notify({
                            tone: "danger",
                            title: "Could not end the session",
                            description: errorMessage(error),
                          }),
                      })
                    }
                  >
                    End session
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

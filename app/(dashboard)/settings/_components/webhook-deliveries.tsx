"use client";

import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDateTime, formatNumber } from "@/lib/format";
import { useResendWebhookDelivery, useWebhookDeliveries, type WebhookDelivery } from "@/lib/query/webhooks";
import type { WebhookEndpoint } from "@/lib/schemas/webhooks";
import { MobileDetail, MobileList, SettingsTable, Td, Th } from "./table";

const STATUS_TONE: Record<WebhookDelivery["status"], BadgeTone> = {
  pending: "info",
  succeeded: "success",
  failed: "warning",
  dead: "danger",
};

const STATUS_LABEL: Record<WebhookDelivery["status"], string> = {
  pending: "Pending",
  succeeded: "Succeeded",
  failed: "Failed, will retry",
  dead: "Gave up",
};

function DeliveryStatus({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Badge tone={STATUS_TONE[delivery.status]} title={delivery.error ?? undefined}>
      {STATUS_LABEL[delivery.status]}
    </Badge>
  );
}

/** When the next attempt is due, under the status (the dialog is too narrow for a column of its own). */
function NextRetry({ delivery }: { delivery: WebhookDelivery }) {
  return delivery.next_attempt_at ? (
    <p className="mt-1 text-xs whitespace-nowrap text-slate-500">
      Next retry {formatDateTime(delivery.next_attempt_at)}
    </p>
  ) : null;
}

const duration = (ms: number | null) => (ms === null ? "—" : `${formatNumber(ms)} ms`);

/** The deliveries log of one endpoint, newest first, with a resend per delivery. */
export function WebhookDeliveriesDialog({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={endpoint !== null}
      onClose={onClose}
      title="Deliveries"
      description={
        endpoint ? `Recent deliveries to ${endpoint.url}, newest first (30 days are kept).` : undefined
      }
      size="xl"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {endpoint ? <DeliveriesLog endpointId={endpoint.id} /> : null}
    </Dialog>
  );
}

function DeliveriesLog({ endpointId }: { endpointId: string }) {
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(endpointId, page);
  const resend = useResendWebhookDelivery(endpointId);
  const { notify } = useToast();

  const resendOne = (delivery: WebhookDelivery) =>
    resend.mutate(delivery.id, {
      onSuccess: () => notify({ title: "Delivery queued again", description: delivery.type }),
      onError: (error) =>
        notify({ title: "Could not resend", description: errorMessage(error), tone: "danger" }),
    });

  const resendButton = (delivery: WebhookDelivery, className?: string) => (
    <Button
      variant="secondary"
      size="sm"
      className={className}
      loading={resend.isPending && resend.variables === delivery.id}
      onClick={() => resendOne(delivery)}
      aria-label={`Resend ${delivery.type} of ${formatDateTime(delivery.created_at)}`}
    >
      Resend
    </Button>
  );

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-slate-600" aria-live="polite">
          {deliveries.data
            ? `${formatNumber(deliveries.data.pagination.total)} ${deliveries.data.pagination.total === 1 ? "delivery" : "deliveries"}`
            : " "}
        </p>
        <Button
          variant="secondary"
          size="sm"
          loading={deliveries.isFetching}
          onClick={() => deliveries.refetch()}
        >
          Refresh
        </Button>
      </div>
      {deliveries.isPending ? (
        <LoadingBlock label="Loading deliveries" />
      ) : deliveries.isError ? (
        <ErrorState
          error={deliveries.error}
          title="Could not load the deliveries"
          onRetry={() => deliveries.refetch()}
        />
      ) : deliveries.data.data.length === 0 ? (
        <EmptyState
          title="No deliveries yet"
          description="Events this endpoint subscribes to show here once they are sent. Try “Send test event”."
        />
      ) : (
        <>
          <div className="rounded-lg border border-slate-200">
            <SettingsTable label="Deliveries" minWidth="46rem">
              <thead>
                <tr>
                  <Th>Event</Th>
                  <Th>Status</Th>
                  <Th className="text-right">Code</Th>
                  <Th className="text-right">Duration</Th>
                  <Th className="text-right">Attempts</Th>
                  <Th>Time</Th>
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.data.map((d) => (
                  <tr key={d.id}>
                    <Td className="font-mono text-xs whitespace-nowrap">{d.type}</Td>
                    <Td>
                      <DeliveryStatus delivery={d} />
                      <NextRetry delivery={d} />
                    </Td>
                    <Td className="text-right tabular-nums">{d.response_code ?? "—"}</Td>
                    <Td className="text-right whitespace-nowrap tabular-nums">{duration(d.duration_ms)}</Td>
                    <Td className="text-right tabular-nums">{d.attempts}</Td>
                    <Td className="whitespace-nowrap">{formatDateTime(d.last_attempt_at ?? d.created_at)}</Td>
                    <Td className="text-right">{resendButton(d)}</Td>
                  </tr>
                ))}
              </tbody>
            </SettingsTable>
            <MobileList label="Deliveries">
              {deliveries.data.data.map((d) => (
                <li key={d.id} className="space-y-2 px-3 py-3">
                  <div className="flex items-start justify-between gap-2">
                    <span className="font-mono text-xs text-slate-900">{d.type}</span>
                    <DeliveryStatus delivery={d} />
                  </div>
                  <dl className="space-y-1">
                    <MobileDetail label="Response">{d.response_code ?? "—"}</MobileDetail>
                    <MobileDetail label="Duration">{duration(d.duration_ms)}</MobileDetail>
                    <MobileDetail label="Attempts">{d.attempts}</MobileDetail>
                    {d.next_attempt_at ? (
                      <MobileDetail label="Next retry">{formatDateTime(d.next_attempt_at)}</MobileDetail>
                    ) : null}
                    <MobileDetail label="Time">
                      {formatDateTime(d.last_attempt_at ?? d.created_at)}
                    </MobileDetail>
                  </dl>
                  {d.error ? <p className="text-xs break-words text-red-700">{d.error}</p> : null}
                  {resendButton(d, "w-full")}
                </li>
              ))}
            </MobileList>
          </div>
          {page > 1 || deliveries.data.pagination.has_more ? (
            <div className="flex justify-end gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={page <= 1}
                onClick={() => setPage((p) => p - 1)}
              >
                Newer
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={!deliveries.data.pagination.has_more}
                onClick={() => setPage((p) => p + 1)}
              >
                Older
              </Button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

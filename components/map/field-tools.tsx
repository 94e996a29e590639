"use client";

import { useCallback, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-state";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { formatDateTime, formatNumber } from "@/lib/format";
import { useSavePin, type FieldPin } from "@/lib/query/pin-knocks";
import {
  isFinalRefusal,
  isKnock,
  isOutcome,
  newClientId,
  pendingOutcomeOf,
  useKnockOutbox,
  type PendingChange,
  type PendingKnock,
  type PendingOutcome,
} from "@/lib/query/pin-outbox";
import type { Pin, PinType } from "@/lib/query/pins";
import { useCan, useSession } from "@/lib/query/session";
import type { FieldLayerProps } from "./field-layer";
import { KnockSheet, type KnockInput } from "./knock-sheet";
import { MapSheet } from "./map-sheet";
import { PinSheet } from "./pin-sheet";
import { useFieldMap } from "./use-field-map";

/**
 * The field team's tools on the map: "Log knock", the knocks waiting to be sent, a pin's sheet
 * and moving a pin. `layer` goes to the map (inside Leaflet), `<FieldTools>` over it.
 */
export function useFieldTools({
  pins,
  types,
  selectedId,
  select,
}: {
  pins: readonly Pin[];
  /** The company's pin types, in settings order. */
  types: readonly PinType[];
  /** The pin whose sheet is open (`?pin=`). */
  selectedId: string;
  select: (id: string | null) => void;
}) {
  const field = useFieldMap();
  const session = useSession();
  const { notify } = useToast();
  const { fixKnock } = field;
  const onRefused = useCallback(
    (change: PendingChange, reason: string) => {
      const label = types.find((t) => t.id === change.pin_type_id)?.label ?? "unknown outcome";
      if (isOutcome(change)) {
        notify({
          tone: "danger",
          title: `Outcome change not sent: ${label}`,
          description: reason,
          durationMs: 30_000,
        });
        return;
      }
      const knock = change;
      notify({
        tone: "danger",
        title: `Knock not sent: ${types.find((t) => t.id === knock.pin_type_id)?.label ?? "unknown outcome"}`,
        description: reason,
        durationMs: 30_000,
        action: { label: "Log again", onClick: () => fixKnock({ ...knock, error: reason }) },
      });
    },
    [notify, types, fixKnock],
  );
  const outbox = useKnockOutbox(session.data?.user.id, { onRefused });
  const [showPending, setShowPending] = useState(false);
  const colors = useMemo(() => new Map(types.map((t) => [t.id, t.color])), [types]);
  // New knocks are drawn where they were logged; outcome changes show on their pin's sheet.
  const pendingKnocks = useMemo(() => outbox.pending.filter(isKnock), [outbox.pending]);
  const selectedPin = useMemo(
    () => (selectedId ? pins.find((p) => p.id === selectedId) : undefined),
    [pins, selectedId],
  );

  const { mode, tapMap, cancel } = field;
  const onSelect = useCallback(
    (pin: Pin) => {
      // While a knock or a move is being placed, a tap on a pin places it instead.
      if (mode.kind === "idle") select(pin.id);
    },
    [mode.kind, select],
  );

  const layer: FieldLayerProps = {
    mode,
    onTap: tapMap,
    selected: selectedPin && mode.kind === "idle" ? [selectedPin.location[0], selectedPin.location[1]] : null,
    pending: pendingKnocks,
    colors,
    onPendingClick: () => {
      cancel();
      setShowPending(true);
    },
  };

  return {
    field,
    outbox,
    layer,
    onSelect,
    selectedPin,
    showPending,
    setShowPending,
    types,
    selectedId,
    select,
  };
}

type FieldTools = ReturnType<typeof useFieldTools>;

export function FieldTools({ tools }: { tools: FieldTools }) {
  const { field, outbox, types, selectedId, select, selectedPin, showPending, setShowPending } = tools;
  const { mode } = field;
  const canWrite = useCan("pins:write");
  const save = useSavePin();
  const { notify } = useToast();
  const [error, setError] = useState<string | null>(null);
  const pendingCount = outbox.pending.length;

  const close = () => {
    setError(null);
    field.cancel();
  };

  async function saveKnock(input: KnockInput) {
    if (mode.kind !== "knock" || !mode.location) return;
    setError(null);
    const knock: PendingKnock = {
      client_id: mode.fixing?.client_id ?? newClientId(),
      location: mode.location,
      pin_type_id: input.pinType.id,
      notes: input.notes || undefined,
      address: input.address,
      logged_at: mode.fixing?.logged_at ?? new Date().toISOString(),
    };
    const keep = () => {
      outbox.add(knock);
      notify({
        tone: "info",
        title: `Knock kept on this device: ${input.pinType.label}`,
        description: "It is sent when the connection returns.",
      });
      close();
    };
    if (!navigator.onLine) return keep();
    try {
      await save.mutateAsync({
        client_id: knock.client_id,
        location: knock.location,
        pin_type_id: knock.pin_type_id,
        notes: knock.notes,
        address: knock.address,
      });
      notify({ tone: "success", title: `Knock saved: ${input.pinType.label}` });
      close();
    } catch (e) {
      // Only a refusal is final; after any other failure the server may have saved the knock, so
      // it waits with its client_id, which a later send matches to that pin.
      if (isFinalRefusal(e)) setError(`Not saved: ${errorMessage(e)}`);
      else keep();
    }
  }

  async function saveMove() {
    if (mode.kind !== "moving" || !mode.to) return;
    setError(null);
    try {
      await save.mutateAsync({ id: mode.pinId, location: mode.to });
      notify({ tone: "success", title: "Pin moved" });
      close();
    } catch (e) {
      setError(`Not moved: ${errorMessage(e)}`);
    }
  }

  return (
    <>
      {mode.kind === "idle" && (canWrite || pendingCount > 0) ? (
        <div className="pointer-events-none absolute inset-x-0 bottom-6 z-[1000] flex flex-col items-center gap-2 px-4 md:bottom-4">
          {pendingCount > 0 ? (
            <button
              type="button"
              onClick={() => setShowPending(true)}
              data-testid="pending-knocks"
              data-count={pendingCount}
              className="pointer-events-auto inline-flex min-h-11 items-center gap-2 rounded-full bg-amber-100 px-4 text-sm font-semibold text-amber-900 shadow-md ring-1 ring-amber-300 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <span
                aria-hidden="true"
                className="size-2.5 rounded-full border-2 border-dashed border-amber-900"
              />
              {formatNumber(pendingCount)} pending
            </button>
          ) : null}
          {canWrite ? (
            <Button
              className="pointer-events-auto h-14 min-w-44 rounded-full px-6 text-base shadow-lg"
              onClick={() => {
                select(null);
                setError(null);
                field.startKnock();
              }}
            >
              <svg viewBox="0 0 20 20" className="size-5" aria-hidden="true">
                <path d="M10 4v12M4 10h12" stroke="currentColor" strokeWidth="2.5" fill="none" />
              </svg>
              Log knock
            </Button>
          ) : null}
        </div>
      ) : null}

      {mode.kind === "knock" || mode.kind === "locating" ? (
        <KnockSheet
          key={mode.kind === "knock" ? (mode.fixing?.client_id ?? "new") : "new"}
          mode={mode}
          types={types}
          saving={save.isPending}
          error={error}
          onSave={(input) => void saveKnock(input)}
          onCancel={close}
          onTapInstead={field.tapInstead}
          onRetryLocation={field.startKnock}
        />
      ) : null}

      {mode.kind === "moving" ? (
        <MapSheet title="Move pin" onClose={close} testId="move-sheet">
          <div className="space-y-3 text-sm">
            {mode.to ? (
              <p className="font-medium text-slate-900" aria-live="polite">
                Move the pin to the new place?
              </p>
            ) : (
              <p className="text-slate-700" aria-live="polite">
                Drag the pin, or tap the map, where the door is.
              </p>
            )}
            {error ? <Notice tone="danger">{error}</Notice> : null}
            <div className="flex gap-2">
              <Button variant="ghost" className="h-11 flex-1" onClick={close}>
                Cancel
              </Button>
              <Button
                className="h-11 flex-1"
                disabled={!mode.to}
                loading={save.isPending}
                onClick={() => void saveMove()}
              >
                Save new place
              </Button>
            </div>
          </div>
        </MapSheet>
      ) : null}

      {mode.kind === "idle" && selectedId && !showPending ? (
        <PinSheet
          key={selectedId}
          pinId={selectedId}
          listed={selectedPin as FieldPin | undefined}
          types={types}
          onClose={() => select(null)}
          onMove={(pinId, from) => field.startMove(pinId, from)}
          pendingOutcome={pendingOutcomeOf(outbox.pending, selectedId)}
          onQueueOutcome={(change: PendingOutcome) => outbox.add(change)}
        />
      ) : null}

      {mode.kind === "idle" && showPending ? (
        <PendingSheet
          pending={outbox.pending}
          types={types}
          onClose={() => setShowPending(false)}
          onSend={() => void outbox.flush()}
        />
      ) : null}
    </>
  );
}

/** The knocks and outcome changes waiting on this device, and sending them now. */
function PendingSheet({
  pending,
  types,
  onClose,
  onSend,
}: {
  pending: readonly PendingChange[];
  types: readonly PinType[];
  onClose: () => void;
  onSend: () => void;
}) {
  const label = (id: string) => types.find((t) => t.id === id)?.label ?? "Unknown outcome";
  return (
    <MapSheet title="Changes waiting to be sent" onClose={onClose} testId="pending-sheet">
      <div className="space-y-3 text-sm">
        {pending.length === 0 ? <p className="text-slate-600">Everything has been sent.</p> : null}
        <ul className="divide-y divide-slate-100">
          {pending.map((change) => (
            <li
              key={change.client_id}
              className="space-y-2 py-2"
              data-client-id={change.client_id}
              data-kind={change.kind ?? "knock"}
            >
              <div className="flex items-baseline justify-between gap-2">
                <span className="font-medium text-slate-900">
                  {isOutcome(change)
                    ? `Outcome change: ${label(change.pin_type_id)}`
                    : `New knock: ${label(change.pin_type_id)}`}
                </span>
                <span className="text-xs text-slate-500">{formatDateTime(change.logged_at)}</span>
              </div>
              {isKnock(change) && change.notes ? <p className="text-slate-700">{change.notes}</p> : null}
            </li>
          ))}
        </ul>
        {pending.length > 0 ? (
          <Button className="h-11 w-full" onClick={onSend}>
            Send now
          </Button>
        ) : null}
      </div>
    </MapSheet>
  );
}

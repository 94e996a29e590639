"use client";

import Link from "next/link";
import { useState } from "react";
import { LeadForm, type LeadPrefill } from "@/components/leads/lead-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-state";
import { Notice } from "@/components/ui/notice";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDateTime, formatNumber } from "@/lib/format";
import { useLead } from "@/lib/query/leads";
import { useSavePin, usePinDetail, type FieldPin } from "@/lib/query/pin-knocks";
import { isFinalRefusal, newClientId, type PendingOutcome } from "@/lib/query/pin-outbox";
import type { PinType } from "@/lib/query/pins";
import { useCan } from "@/lib/query/session";
import { MapSheet, OutcomeButtons } from "./map-sheet";
import type { LatLng } from "./use-field-map";

const nameOf = (user: { name: string; email: string }) => user.name || user.email;

function addressText(pin: FieldPin): string | null {
  const a = pin.address;
  if (!a) return null;
  const place = [a.city, [a.state, a.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [a.street1, place].filter(Boolean).join(", ") || null;
}

/**
 * A door's sheet: its address, notes, last visit and who knocked, every visit (GET /pins/{id}),
 * and for the field team: another outcome (a new visit, or within 10 minutes of the user's own last
 * visit a correction of it), "Move pin" and "Create lead". Offline, or when the answer does not
 * come, an outcome change waits on the device with its time and shows as pending here.
 */
export function PinSheet({
  pinId,
  listed,
  types,
  onClose,
  onMove,
  pendingOutcome,
  onQueueOutcome,
}: {
  pinId: string;
  /** The pin as the map has it, shown while its history loads. */
  listed?: FieldPin;
  types: readonly PinType[];
  onClose: () => void;
  onMove: (pinId: string, from: LatLng) => void;
  /** This pin's newest outcome change waiting on the device. */
  pendingOutcome?: PendingOutcome | undefined;
  onQueueOutcome: (change: PendingOutcome) => void;
}) {
  const detail = usePinDetail(pinId);
  const save = useSavePin();
  const { notify } = useToast();
  const canWrite = useCan("pins:write");
  const canCreateLead = useCan("leads:write");
  const [creatingLead, setCreatingLead] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pin: FieldPin | undefined = detail.data ?? listed;

  if (!pin) {
    return (
      <MapSheet title="Pin" onClose={onClose} testId="pin-sheet">
        {detail.isError ? (
          <Notice tone="danger">Could not load the pin: {errorMessage(detail.error)}</Notice>
        ) : (
          <LoadingBlock label="Loading the pin" />
        )}
      </MapSheet>
    );
  }

  const visits = detail.data?.visits ?? [];
  const last = visits[0];
  const address = addressText(pin);

  async function change(type: PinType) {
    setError(null);
    const queued: PendingOutcome = {
      kind: "outcome",
      client_id: newClientId(),
      pin_id: pinId,
      pin_type_id: type.id,
      logged_at: new Date().toISOString(),
    };
    const keep = () => {
      onQueueOutcome(queued);
      notify({
        tone: "info",
        title: `Outcome kept on this device: ${type.label}`,
        description: "It is sent when the connection returns.",
      });
    };
    if (!navigator.onLine) return keep();
    try {
      // Sent now, the server's clock dates it (a phone's clock may be off); only a queued change
      // carries its own time.
      const saved = await save.mutateAsync({ id: pinId, pin_type_id: type.id });
      // Within 10 minutes of the user's own last visit the API corrects that visit (E5).
      const corrected = saved.visit_count === pin?.visit_count;
      notify({
        tone: "success",
        title: `${corrected ? "Visit corrected" : "Visit recorded"}: ${type.label}`,
      });
    } catch (e) {
      // Without an answer the change may or may not have been saved; sent again, it finds the pin
      // with that outcome already and records nothing more.
      if (isFinalRefusal(e)) setError(errorMessage(e));
      else keep();
    }
  }

  const prefill: LeadPrefill = {
    address_street1: pin.address?.street1 ?? "",
    address_city: pin.address?.city ?? "",
    address_state: pin.address?.state ?? "",
    address_zip: pin.address?.zip ?? "",
    notes: pin.notes ?? "",
    source: "Door knock",
  };

  return (
    <MapSheet
      testId="pin-sheet"
      onClose={onClose}
      title={
        <span className="flex items-center gap-2">
          <span
            aria-hidden="true"
            className="size-3.5 shrink-0 rounded-full ring-2 ring-white"
            style={{ background: pin.pin_type.color, boxShadow: `0 0 0 1.5px ${pin.pin_type.color}` }}
          />
          <span data-testid="pin-sheet-type">{pin.pin_type.label}</span>
        </span>
      }
    >
      <div className="space-y-4 text-sm" data-pin-id={pin.id}>
        <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 gap-y-1.5">
          <dt className="text-slate-500">Address</dt>
          <dd className="text-slate-900">{address ?? "—"}</dd>
          <dt className="text-slate-500">Notes</dt>
          <dd className="whitespace-pre-line text-slate-900">{pin.notes || "—"}</dd>
          <dt className="text-slate-500">Last visit</dt>
          <dd className="text-slate-900" data-testid="pin-last-visit">
            {last
              ? `${formatDateTime(last.at)} by ${nameOf(last.by)}`
              : formatDateTime(pin.last_visit_at ?? pin.created_at)}
          </dd>
          <dt className="text-slate-500">Dropped by</dt>
          <dd className="text-slate-900">
            {nameOf(pin.created_by)}, {formatDateTime(pin.created_at)}
          </dd>
          {pin.lead_id ? (
            <>
              <dt className="text-slate-500">Lead</dt>
              <dd>
                <PinLead id={pin.lead_id} />
              </dd>
            </>
          ) : null}
        </dl>

        {error ? <Notice tone="danger">{error}</Notice> : null}
        {pendingOutcome ? (
          <div data-testid="pin-pending-outcome">
            <Notice tone="warning">
              Pending: {types.find((t) => t.id === pendingOutcome.pin_type_id)?.label ?? "new outcome"},{" "}
              {formatDateTime(pendingOutcome.logged_at)}. Kept on this device and sent when the connection
              returns.
            </Notice>
          </div>
        ) : null}
        {canWrite ? (
          <div>
            <p className="mb-2 font-medium text-slate-800">Change the outcome (records a visit)</p>
            <OutcomeButtons
              types={types}
              current={pendingOutcome?.pin_type_id ?? pin.pin_type.id}
              disabled={save.isPending}
              onChoose={(type) => void change(type)}
              label="Change the outcome"
            />
          </div>
        ) : null}

        {canWrite ? (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              className="h-11 flex-1"
              onClick={() => onMove(pin.id, [pin.location[0], pin.location[1]])}
            >
              Move pin
            </Button>
            {!pin.lead_id && canCreateLead ? (
              <Button variant="secondary" className="h-11 flex-1" onClick={() => setCreatingLead(true)}>
                Create lead
              </Button>
            ) : null}
          </div>
        ) : null}

        <section aria-label="Visits">
          <h3 className="mb-1.5 font-medium text-slate-800">
            Visits{" "}
            <span className="font-normal text-slate-500">
              ({formatNumber(visits.length || pin.visit_count || 0)})
            </span>
          </h3>
          {detail.isPending ? (
            <LoadingBlock label="Loading the visits" />
          ) : visits.length === 0 ? (
            <p className="text-slate-500">No visits recorded.</p>
          ) : (
            <ol className="divide-y divide-slate-100" data-testid="pin-visits">
              {visits.map((visit, i) => (
                <li key={`${visit.at}-${i}`} className="flex items-center gap-2 py-1.5">
                  <span
                    aria-hidden="true"
                    className="size-2.5 shrink-0 rounded-full"
                    style={{ background: visit.pin_type.color }}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="font-medium text-slate-900">{visit.pin_type.label}</span>
                    <span className="text-slate-600"> · {nameOf(visit.by)}</span>
                  </span>
                  <time dateTime={visit.at} className="shrink-0 text-xs text-slate-500">
                    {formatDateTime(visit.at)}
                  </time>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>

      <Dialog
        open={creatingLead}
        onClose={() => setCreatingLead(false)}
        title="New lead from this door"
        description="Prefilled from the pin. If a lead with the same phone or email exists, you are asked whether to update it."
        size="lg"
      >
        {creatingLead ? (
          <LeadForm
            prefill={prefill}
            onCancel={() => setCreatingLead(false)}
            onSaved={async (result) => {
              setCreatingLead(false);
              try {
                await save.mutateAsync({ id: pin.id, lead_id: result.lead.id });
                notify({
                  tone: "success",
                  title: `Lead ${result.lead.name || ""} linked to the pin`.replace("  ", " "),
                });
              } catch (e) {
                setError(`The lead was saved but not linked to the pin: ${errorMessage(e)}`);
              }
            }}
          />
        ) : null}
      </Dialog>
    </MapSheet>
  );
}

/** "Lead: <name>", a link to the lead for those who may read leads. */
function PinLead({ id }: { id: string }) {
  const canRead = useCan("leads:read");
  if (!canRead) return <span className="text-slate-900">Linked to a lead</span>;
  return <PinLeadLink id={id} />;
}

function PinLeadLink({ id }: { id: string }) {
  const lead = useLead(id);
  return (
    <Link
      href={`/leads/${encodeURIComponent(id)}`}
      className="font-medium text-brand-700 underline-offset-2 hover:underline"
      data-testid="pin-lead-link"
    >
      {lead.data ? lead.data.name || "(no name)" : "Open the lead"}
    </Link>
  );
}

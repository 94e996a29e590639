"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import type { PinAddress } from "@/lib/query/pin-knocks";
import type { PinType } from "@/lib/query/pins";
import { MapSheet, OutcomeButtons } from "./map-sheet";
import type { FieldMode } from "./use-field-map";

export interface KnockInput {
  pinType: PinType;
  notes: string;
  address?: Partial<PinAddress>;
}

const ADDRESS_FIELDS = [
  ["street1", "Street"],
  ["city", "City"],
  ["state", "State"],
  ["zip", "ZIP"],
] as const;

/** The filled address fields, or nothing when none is filled. */
function addressOf(values: Record<keyof PinAddress, string>): Partial<PinAddress> | undefined {
  const out: Partial<PinAddress> = {};
  for (const [key] of ADDRESS_FIELDS) if (values[key].trim()) out[key] = values[key].trim();
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * "Log knock": where (the device's location, or a tap), optional notes and address, then one tap
 * on the outcome saves it.
 */
export function KnockSheet({
  mode,
  types,
  saving,
  error,
  onSave,
  onCancel,
  onTapInstead,
  onRetryLocation,
}: {
  mode: Extract<FieldMode, { kind: "knock" | "locating" }>;
  types: readonly PinType[];
  saving: boolean;
  error: string | null;
  onSave: (input: KnockInput) => void;
  onCancel: () => void;
  onTapInstead: () => void;
  onRetryLocation: () => void;
}) {
  const fixing = mode.kind === "knock" ? mode.fixing : undefined;
  const [notes, setNotes] = useState(fixing?.notes ?? "");
  const [address, setAddress] = useState<Record<keyof PinAddress, string>>({
    street1: fixing?.address?.street1 ?? "",
    city: fixing?.address?.city ?? "",
    state: fixing?.address?.state ?? "",
    zip: fixing?.address?.zip ?? "",
  });
  const location = mode.kind === "knock" ? mode.location : null;

  const placed = Boolean(location);

  return (
    <MapSheet
      title={fixing ? "Fix a knock that was not sent" : "Log a knock"}
      onClose={onCancel}
      testId="knock-sheet"
      // Low on a phone: the marker the user is told to drag stays in sight above it.
      compact
    >
      <div className="space-y-3">
        {fixing?.error ? <Notice tone="danger">Not sent: {fixing.error}</Notice> : null}
        <div aria-live="polite" className="text-sm text-slate-700" data-testid="knock-where">
          {mode.kind === "locating" ? (
            <span className="flex items-center gap-2">
              <Spinner /> Finding your location…
            </span>
          ) : mode.locationError ? (
            <Notice tone="warning">{mode.locationError}</Notice>
          ) : !location ? (
            <span className="font-medium">Tap the map where the door is.</span>
          ) : mode.source === "device" ? (
            <span>
              At your location{mode.accuracy ? ` (within ${Math.round(mode.accuracy)} m)` : ""}. Drag the
              marker to correct it.
            </span>
          ) : (
            <span>Where you tapped. Tap again or drag the marker to correct it.</span>
          )}
        </div>
        {mode.kind === "locating" || (mode.kind === "knock" && mode.source === "device") ? (
          <Button variant="secondary" className="h-11 w-full" onClick={onTapInstead}>
            Tap the map instead
          </Button>
        ) : mode.locationError ? (
          <Button variant="secondary" className="h-11 w-full" onClick={onRetryLocation}>
            Try my location again
          </Button>
        ) : null}

        {/* Until the knock has a place, the sheet stays small so the map can be tapped. */}
        {placed ? (
          <>
            <Field label="Notes (optional)">
              <Input
                value={notes}
                onChange={(e) => setNotes(e.target.value)}
                maxLength={10_000}
                autoComplete="off"
              />
            </Field>
            <details className="rounded-md border border-slate-200" open={Boolean(fixing?.address)}>
              <summary className="flex min-h-11 cursor-pointer items-center px-3 text-sm font-medium text-slate-800">
                Address (optional)
              </summary>
              <div className="grid grid-cols-2 gap-3 border-t border-slate-200 p-3">
                {ADDRESS_FIELDS.map(([key, label]) => (
                  <Field key={key} label={label} className={key === "street1" ? "col-span-2" : undefined}>
                    <Input
                      value={address[key]}
                      onChange={(e) => setAddress((a) => ({ ...a, [key]: e.target.value }))}
                      autoComplete="off"
                      maxLength={255}
                    />
                  </Field>
                ))}
              </div>
            </details>
            {error ? <Notice tone="danger">{error}</Notice> : null}
            <div>
              <p className="mb-2 text-sm font-medium text-slate-800">Outcome: tap one to save</p>
              <OutcomeButtons
                types={types}
                label="Outcome"
                disabled={saving}
                onChoose={(pinType) => onSave({ pinType, notes: notes.trim(), address: addressOf(address) })}
              />
            </div>
          </>
        ) : null}
      </div>
    </MapSheet>
  );
}

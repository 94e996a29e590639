"use client";

import { useState } from "react";
import { closeColorPairs, textColorOn } from "@/components/map/pin-colors";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { ApiClientError } from "@/lib/query/api-client";
import { usePinTypeSettings, useSavePinTypes, type PinTypeInput } from "@/lib/query/pin-types";
import type { PinType } from "@/lib/query/pins";

/** A pin type being edited; `key` tells rows apart (a new type has no id yet). */
interface DraftType extends PinTypeInput {
  key: string;
}

/** Colors offered to a new type in turn: far apart from each other. */
const NEW_TYPE_COLORS = ["#7c3aed", "#0891b2", "#db2777", "#65a30d", "#ea580c", "#1e3a8a"];

let draftKeys = 0;
const toDraft = (type: PinTypeInput): DraftType => ({
  id: type.id,
  label: type.label,
  color: type.color,
  key: `pin-type-${++draftKeys}`,
});

/** Pin types (admins): the outcomes of a knock, their colors and their order on the map. */
export function PinTypesSection() {
  const saved = usePinTypeSettings();
  return (
    <Card aria-labelledby="pin-types-heading">
      <CardHeader
        id="pin-types-heading"
        title="Pin types"
        description="The outcomes of a knock, in the order the field team sees them. Each color must stand out on the map."
      />
      {saved.isPending ? (
        <LoadingBlock label="Loading the pin types" />
      ) : saved.isError ? (
        <ErrorState
          error={saved.error}
          title="Could not load the pin types"
          onRetry={() => saved.refetch()}
        />
      ) : (
        // Remounted with each saved version, so the draft starts from what is stored.
        <PinTypesEditor key={saved.dataUpdatedAt} types={saved.data} />
      )}
    </Card>
  );
}

function PinTypesEditor({ types }: { types: PinType[] }) {
  const save = useSavePinTypes();
  const { notify } = useToast();
  const initial = () => types.map((t) => toDraft({ id: t.id, label: t.label, color: t.color }));
  const [draft, setDraft] = useState<DraftType[]>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");

  const update = (key: string, patch: Partial<DraftType>) =>
    setDraft((current) => current.map((t) => (t.key === key ? { ...t, ...patch } : t)));

  function move(index: number, by: -1 | 1) {
    const target = index + by;
    const next = [...draft];
    const [type] = next.splice(index, 1);
    next.splice(target, 0, type!);
    setDraft(next);
    setAnnouncement(`${type!.label || "Pin type"} moved to position ${target + 1} of ${next.length}`);
    // The keyboard stays on the moved row's button (the other one at either end).
    const edge = target === 0 ? "down" : target === next.length - 1 ? "up" : by === -1 ? "up" : "down";
    requestAnimationFrame(() => document.getElementById(`${type!.key}-${edge}`)?.focus());
  }

  function add() {
    const type = toDraft({ label: "", color: NEW_TYPE_COLORS[draft.length % NEW_TYPE_COLORS.length]! });
    setDraft([...draft, type]);
    requestAnimationFrame(() => document.getElementById(`${type.key}-label`)?.focus());
  }

  function remove(type: DraftType) {
    setDraft(draft.filter((t) => t.key !== type.key));
    setAnnouncement(`${type.label || "Pin type"} removed; save to apply`);
  }

  const asSaved: PinTypeInput[] = draft.map(({ id, label, color }) =>
    id ? { id, label, color } : { label, color },
  );
  const changed =
    JSON.stringify(asSaved) !== JSON.stringify(types.map(({ id, label, color }) => ({ id, label, color })));
  // Types whose colors are too close to tell apart on the map: a warning, not a refusal.
  const close = closeColorPairs(draft.map((t) => t.color));
  const tooClose = new Set(close.flat());

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setErrors({});
    // Not mutate's own callbacks: a save remounts this editor, whose callbacks would then not run.
    save.mutateAsync(asSaved).then(
      () => notify({ tone: "success", title: "Pin types saved" }),
      (error: unknown) => {
        if (error instanceof ApiClientError && error.code === "PIN_TYPE_IN_USE") {
          setFormError(error.message);
        } else if (error instanceof ApiClientError && error.details.length > 0) {
          setErrors(error.fieldErrors());
          setFormError("Check the highlighted pin types.");
        } else setFormError(errorMessage(error));
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Pin types">
      <CardBody className="space-y-4">
        {formError ? (
          <Notice tone="danger">
            <span data-testid="pin-types-error">{formError}</span>
          </Notice>
        ) : null}
        {close.length > 0 ? (
          <Notice tone="warning">
            <span data-testid="pin-types-close-colors">
              These colors are hard to tell apart on the map:{" "}
              {close
                .map(
                  ([i, j]) =>
                    `${draft[i]!.label || `type ${i + 1}`} and ${draft[j]!.label || `type ${j + 1}`}`,
                )
                .join("; ")}
              . Pick colors further apart.
            </span>
          </Notice>
        ) : null}
        <ol className="space-y-3">
          {draft.map((type, index) => {
            const name = type.label || `Pin type ${index + 1}`;
            const err = errors[`pin_types.${index}.label`] ?? errors[`pin_types.${index}.color`];
            return (
              <li
                key={type.key}
                aria-label={name}
                className="flex flex-wrap items-start gap-2 rounded-lg border border-slate-200 p-3"
                data-warning={tooClose.has(index) || undefined}
              >
                <span className="w-6 pt-2 text-right text-sm text-slate-500 tabular-nums" aria-hidden="true">
                  {index + 1}.
                </span>
                <input
                  type="color"
                  value={type.color}
                  onChange={(e) => update(type.key, { color: e.target.value })}
                  aria-label={`Color of ${name}`}
                  className="mt-0.5 h-9 w-10 shrink-0 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
                />
                <div className="min-w-40 flex-1">
                  <Input
                    id={`${type.key}-label`}
                    value={type.label}
                    onChange={(e) => update(type.key, { label: e.target.value })}
                    aria-label={`Name of pin type ${index + 1}`}
                    maxLength={100}
                    invalid={Boolean(err)}
                    aria-describedby={err ? `${type.key}-error` : undefined}
                  />
                  {err ? (
                    <p id={`${type.key}-error`} className="mt-1 text-xs font-medium text-red-600">
                      {err}
                    </p>
                  ) : null}
                </div>
                {/* How the outcome button looks in the knock sheet. */}
                <span
                  aria-hidden="true"
                  className="hidden h-9 min-w-24 items-center justify-center rounded-md px-2 text-sm font-semibold sm:inline-flex"
                  style={{ background: type.color, color: textColorOn(type.color) }}
                >
                  {type.label || "—"}
                </span>
                <div className="flex items-center gap-1">
                  <Button
                    id={`${type.key}-up`}
                    variant="ghost"
                    size="sm"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    Up<span className="sr-only">: move {name} up</span>
                  </Button>
                  <Button
                    id={`${type.key}-down`}
                    variant="ghost"
                    size="sm"
                    disabled={index === draft.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    Down<span className="sr-only">: move {name} down</span>
                  </Button>
                  <Button variant="danger-ghost" size="sm" onClick={() => remove(type)}>
                    Remove<span className="sr-only"> {name}</span>
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-between">
          <Button variant="secondary" onClick={add}>
            Add pin type
          </Button>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button
              variant="ghost"
              disabled={!changed || save.isPending}
              onClick={() => {
                setDraft(initial());
                setErrors({});
                setFormError(null);
              }}
            >
              Discard changes
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!changed}>
              Save pin types
            </Button>
          </div>
        </div>
      </CardBody>
    </form>
  );
}

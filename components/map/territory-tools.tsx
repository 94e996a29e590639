"use client";

import { useState } from "react";
import {
  Button,
  Checkbox,
  cn,
  Dialog,
  Field,
  Input,
  Notice,
  errorMessage,
  useToast,
  useUnsavedChangesGuard,
} from "@/components/ui";
import { ApiClientError } from "@/lib/query/api-client";
import { useAssignableUsers } from "@/lib/query/lead-owners";
import { useCan, useSession } from "@/lib/query/session";
import {
  useDeleteTerritory,
  useSaveTerritory,
  useTerritories,
  type Territory,
} from "@/lib/query/territories";
import { TERRITORY_NAME_MAX } from "@/lib/schemas/territories";
import { ROLE_LABELS } from "@/lib/values/roles";
import { MapSheet } from "./map-sheet";
import { cornerCount, TERRITORY_COLORS, type TerritoryPolygon } from "./territory-geometry";
import type { TerritoryEditMode, TerritoryLayerProps } from "./territory-layer";

/**
 * The territory editor of admins and managers (extensions.md E6): list, draw, and a form for name, color
 * and users while the shape is edited on the map. `layer` goes to the map, `<TerritoryTools>` over it.
 */

type EditorMode =
  | { kind: "closed" }
  | { kind: "list" }
  | { kind: "drawing" }
  | {
      kind: "form";
      /** The territory being edited; undefined for a drawn one. */
      id?: string;
      /** Changes when another shape is edited (the map makes a new editable layer). */
      key: string;
      polygon: TerritoryPolygon;
      name: string;
      color: string;
      assigned: string[];
    };

let drafts = 0;

export function useTerritoryEditor() {
  const session = useSession();
  const canEdit = useCan("territories:write");
  const canRead = useCan("pins:read");
  const territories = useTerritories(canRead);
  const [mode, setMode] = useState<EditorMode>({ kind: "closed" });

  const edit = (territory: Territory) =>
    setMode({
      kind: "form",
      id: territory.id,
      key: `${territory.id}:${++drafts}`,
      polygon: territory.polygon,
      name: territory.name,
      color: territory.color,
      assigned: territory.assigned_to,
    });

  const layerEdit: TerritoryEditMode =
    mode.kind === "drawing"
      ? { kind: "drawing" }
      : mode.kind === "form"
        ? { kind: "shape", id: mode.id, key: mode.key, polygon: mode.polygon, color: mode.color }
        : { kind: "off" };

  const layer: Omit<TerritoryLayerProps, "focus"> = {
    territories: territories.data ?? [],
    userId: session.data?.user.id,
    edit: layerEdit,
    onPick: mode.kind === "list" ? edit : undefined,
    onDrawn: (polygon) =>
      setMode({
        kind: "form",
        key: `new:${++drafts}`,
        polygon,
        name: "",
        color: TERRITORY_COLORS[0].value,
        assigned: [],
      }),
    onShapeChange: (polygon) => setMode((m) => (m.kind === "form" ? { ...m, polygon } : m)),
  };

  return {
    canEdit,
    territories: territories.data ?? [],
    mode,
    setMode,
    edit,
    layer,
    /** The editor is open: the field tools step aside, a tap on a pin does nothing. */
    open: mode.kind !== "closed",
    /** The territory whose form is open, for bringing it into view. */
    editing:
      mode.kind === "form" && mode.id ? (territories.data ?? []).find((t) => t.id === mode.id) : undefined,
  };
}

export type TerritoryEditor = ReturnType<typeof useTerritoryEditor>;

/** The "Edit territories" button of admins and managers. */
export function TerritoriesButton({ editor, onOpen }: { editor: TerritoryEditor; onOpen: () => void }) {
  if (!editor.canEdit) return null;
  return (
    <Button
      variant="secondary"
      // Thumb-sized in the phone's Filters sheet, the filters' height beside them on a wide screen.
      className="h-11 w-full sm:h-10 sm:w-auto"
      aria-pressed={editor.open}
      onClick={() => {
        if (editor.open) editor.setMode({ kind: "closed" });
        else {
          onOpen();
          editor.setMode({ kind: "list" });
        }
      }}
    >
      <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
        <path d="M3 6l5-3 4 3 5-2v10l-5 3-4-3-5 2z" fill="none" stroke="currentColor" strokeWidth="1.6" />
      </svg>
      Edit territories
    </Button>
  );
}

export function TerritoryTools({
  editor,
  onDeleted,
}: {
  editor: TerritoryEditor;
  /** A territory was deleted (a filter on it is cleared). */
  onDeleted: (id: string) => void;
}) {
  const { mode, setMode, territories, edit } = editor;
  const close = () => setMode({ kind: "closed" });

  if (mode.kind === "list") {
    return (
      <MapSheet title="Territories" onClose={close} testId="territory-sheet">
        <div className="space-y-3 text-sm">
          <Button className="h-11 w-full" onClick={() => setMode({ kind: "drawing" })}>
            <svg viewBox="0 0 20 20" className="size-5" aria-hidden="true">
              <path d="M10 4v12M4 10h12" stroke="currentColor" strokeWidth="2.5" fill="none" />
            </svg>
            Draw territory
          </Button>
          {territories.length === 0 ? (
            <p className="text-slate-600">No territories yet: draw the first one on the map.</p>
          ) : (
            <>
              <p className="text-slate-600">Choose a territory, here or on the map, to change it.</p>
              <ul className="divide-y divide-slate-100">
                {territories.map((t) => (
                  <li key={t.id}>
                    <button
                      type="button"
                      onClick={() => edit(t)}
                      data-territory-id={t.id}
                      aria-label={`Edit ${t.name}`}
                      className="flex min-h-11 w-full items-center gap-3 rounded-md px-2 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                    >
                      <span
                        aria-hidden="true"
                        className="size-4 shrink-0 rounded-sm border-2"
                        style={{ borderColor: t.color, background: `${t.color}33` }}
                      />
                      <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{t.name}</span>
                      <span className="shrink-0 text-xs text-slate-500">
                        {t.assigned_to.length === 1 ? "1 person" : `${t.assigned_to.length} people`}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </MapSheet>
    );
  }

  if (mode.kind === "drawing") {
    return (
      <MapSheet title="Draw territory" onClose={() => setMode({ kind: "list" })} testId="territory-sheet">
        <div className="space-y-3 text-sm">
          <p className="text-slate-700" aria-live="polite">
            Click or tap the map at each corner of the territory, then click the first corner again to close
            the shape.
          </p>
          <Button variant="secondary" className="h-11 w-full" onClick={() => setMode({ kind: "list" })}>
            Cancel
          </Button>
        </div>
      </MapSheet>
    );
  }

  if (mode.kind === "form") {
    return (
      <TerritoryForm
        key={mode.key}
        mode={mode}
        onChange={(patch) => setMode((m) => (m.kind === "form" ? { ...m, ...patch } : m))}
        onDone={() => setMode({ kind: "list" })}
        onDeleted={(id) => {
          onDeleted(id);
          setMode({ kind: "list" });
        }}
      />
    );
  }
  return null;
}

type FormMode = Extract<EditorMode, { kind: "form" }>;

/** Field of the API's `details` → the form's field (polygon.coordinates.0 … is the shape). */
function formField(field: string): "name" | "color" | "polygon" | "assigned_to" | null {
  const root = field.split(".")[0];
  return root === "name" || root === "color" || root === "polygon" || root === "assigned_to" ? root : null;
}

/** What the form would save, to compare with what it opened with. */
const fingerprint = (mode: FormMode) =>
  JSON.stringify([mode.name, mode.color, [...mode.assigned].sort(), mode.polygon]);

function TerritoryForm({
  mode,
  onChange,
  onDone,
  onDeleted,
}: {
  mode: FormMode;
  onChange: (patch: Partial<Pick<FormMode, "name" | "color" | "assigned">>) => void;
  onDone: () => void;
  onDeleted: (id: string) => void;
}) {
  const users = useAssignableUsers();
  const save = useSaveTerritory();
  const remove = useDeleteTerritory();
  const { notify } = useToast();
  const [errors, setErrors] = useState<Partial<Record<"name" | "color" | "polygon" | "assigned_to", string>>>(
    {},
  );
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const isEdit = mode.id !== undefined;
  // A drawn territory is lost on closing until it is saved; a saved one once anything differs.
  const [initial] = useState(() => fingerprint(mode));
  const dirty = !isEdit || fingerprint(mode) !== initial;
  const { bindForm, confirmDiscard, discardDialog } = useUnsavedChangesGuard(dirty);
  const colors = TERRITORY_COLORS.some((c) => c.value === mode.color.toLowerCase())
    ? TERRITORY_COLORS
    : [...TERRITORY_COLORS, { value: mode.color, name: `Current color (${mode.color})` }];

  function showError(error: unknown) {
    const next: typeof errors = {};
    let unplaced = false;
    if (error instanceof ApiClientError) {
      for (const detail of error.details) {
        const field = formField(detail.field);
        if (field) next[field] ??= detail.message;
        else unplaced = true;
      }
    }
    setErrors(next);
    setFormError(Object.keys(next).length === 0 || unplaced ? errorMessage(error) : null);
  }

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!mode.name.trim()) {
      setErrors({ name: "Enter a name" });
      return;
    }
    setErrors({});
    setFormError(null);
    try {
      const saved = await save.mutateAsync({
        id: mode.id,
        name: mode.name.trim(),
        color: mode.color,
        polygon: mode.polygon,
        assigned_to: mode.assigned,
      });
      notify({ tone: "success", title: `Territory saved: ${saved.name}` });
      onDone();
    } catch (error) {
      showError(error);
    }
  }

  async function onDelete() {
    if (!mode.id) return;
    try {
      await remove.mutateAsync(mode.id);
      setConfirming(false);
      notify({ tone: "success", title: `Territory deleted: ${mode.name}` });
      onDeleted(mode.id);
    } catch (error) {
      setConfirming(false);
      showError(error);
    }
  }

  const corners = cornerCount(mode.polygon);
  return (
    <MapSheet
      title={isEdit ? "Edit territory" : "New territory"}
      onClose={() => confirmDiscard(onDone)}
      testId="territory-form"
      compact
    >
      <form
        ref={bindForm}
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-label={isEdit ? "Edit territory" : "New territory"}
        className="space-y-4"
      >
        <Field label="Name" required error={errors.name}>
          <Input
            value={mode.name}
            onChange={(e) => onChange({ name: e.target.value })}
            maxLength={TERRITORY_NAME_MAX}
            autoComplete="off"
            className="h-11"
            required
          />
        </Field>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Color</legend>
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            {colors.map((c) => (
              <label key={c.value} className="relative block cursor-pointer" title={c.name}>
                <input
                  type="radio"
                  name="territory-color"
                  value={c.value}
                  checked={mode.color.toLowerCase() === c.value.toLowerCase()}
                  onChange={() => onChange({ color: c.value })}
                  className="peer sr-only"
                />
                <span className="sr-only">{c.name}</span>
                <span
                  aria-hidden="true"
                  className="flex size-11 items-center justify-center rounded-full ring-offset-2 peer-checked:ring-3 peer-checked:ring-slate-900 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-4 peer-focus-visible:outline-brand-600 [&>svg]:hidden peer-checked:[&>svg]:block"
                  style={{ background: c.value }}
                >
                  <svg viewBox="0 0 20 20" className="size-5 text-white">
                    <path d="M4 10.5l4 4 8-9" fill="none" stroke="currentColor" strokeWidth="2.5" />
                  </svg>
                </span>
              </label>
            ))}
          </div>
          {errors.color ? <p className="mt-1 text-xs font-medium text-red-600">{errors.color}</p> : null}
        </fieldset>

        <div className="space-y-1" data-testid="territory-shape">
          <p className="text-sm font-medium text-slate-800">Shape</p>
          <p className="text-xs text-slate-600" aria-live="polite">
            {corners} corners. Drag a corner on the map to move it; drag a point between two corners to add
            one.
          </p>
          {errors.polygon ? (
            <p role="alert" className="text-xs font-medium text-red-600">
              Shape {errors.polygon}
            </p>
          ) : null}
        </div>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Assigned people</legend>
          {users.isPending ? <p className="mt-1 text-sm text-slate-500">Loading people…</p> : null}
          <div className="mt-1 max-h-32 overflow-y-auto rounded-md border border-slate-200 px-3 md:max-h-56">
            {(users.data ?? []).map((user) => (
              <Checkbox
                key={user.id}
                className="min-h-11 items-center py-1"
                label={`${user.name} (${ROLE_LABELS[user.role]})`}
                checked={mode.assigned.includes(user.id)}
                onChange={(e) =>
                  onChange({
                    assigned: e.target.checked
                      ? [...mode.assigned, user.id]
                      : mode.assigned.filter((id) => id !== user.id),
                  })
                }
              />
            ))}
          </div>
          {errors.assigned_to ? (
            <p className="mt-1 text-xs font-medium text-red-600">{errors.assigned_to}</p>
          ) : null}
        </fieldset>

        {formError ? <Notice tone="danger">{formError}</Notice> : null}

        {/* The actions stay in sight at the sheet's bottom while its fields scroll. */}
        <div
          className={cn(
            // Down over the sheet's bottom padding, so no field shows through under it.
            "sticky -bottom-4 -mx-4 flex flex-wrap gap-2 border-t border-slate-100 bg-white px-4 pt-2 pb-4",
            isEdit && "justify-between",
          )}
        >
          {isEdit ? (
            <Button variant="danger-ghost" className="h-11" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          ) : null}
          <div className="flex flex-1 justify-end gap-2">
            <Button variant="ghost" className="h-11" onClick={() => confirmDiscard(onDone)}>
              Cancel
            </Button>
            <Button type="submit" className="h-11 min-w-24" loading={save.isPending}>
              Save
            </Button>
          </div>
        </div>
        {discardDialog}
      </form>
      <Dialog
        open={confirming}
        role="alertdialog"
        size="sm"
        onClose={() => setConfirming(false)}
        title={`Delete ${mode.name || "this territory"}?`}
        description="The territory and its assignments are removed. Pins and leads stay as they are."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} data-autofocus>
              Keep it
            </Button>
            <Button variant="danger" loading={remove.isPending} onClick={() => void onDelete()}>
              Delete territory
            </Button>
          </>
        }
      />
    </MapSheet>
  );
}

"use client";

import dynamic from "next/dynamic";
import { useCallback, useMemo, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { FieldTools, useFieldTools } from "@/components/map/field-tools";
import { MapLegend, type LegendEntry } from "@/components/map/map-legend";
import { MapSheet } from "@/components/map/map-sheet";
import { TerritoriesButton, TerritoryTools, useTerritoryEditor } from "@/components/map/territory-tools";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { SM_UP, useMediaQuery } from "@/components/ui/use-media-query";
import { formatNumber } from "@/lib/format";
import {
  pinKeys,
  useAllPins,
  usePinTypes,
  type Pin,
  type PinFilters,
  type PinSet,
  type PinUser,
} from "@/lib/query/pins";
import { territoryOptions } from "@/lib/query/territories";
import { useUrlState } from "@/lib/query/url-state";

const MapPlaceholder = () => <div className="h-full w-full animate-pulse bg-slate-200" aria-hidden="true" />;

// Leaflet touches `window` on import: the map is rendered in the browser only.
const PinMap = dynamic(() => import("@/components/map/pin-map"), { ssr: false, loading: MapPlaceholder });
// Admins and managers draw territories: Geoman comes first, then the map it hooks into.
const PinMapWithDrawing = dynamic(
  () => import("@/components/map/geoman").then(() => import("@/components/map/pin-map")),
  { ssr: false, loading: MapPlaceholder },
);
// The map's code is fetched as this page's code runs, not after hydration renders the map.
if (typeof window !== "undefined") void import("@/components/map/pin-map");

/**
 * type: pin type id; rep: creator's user id; territory: territory id; hidden: pin type ids hidden by
 * the legend; pin: a linked pin.
 */
const URL_DEFAULTS = { type: "", rep: "", territory: "", hidden: "", pin: "" };

/** The map page: filters in the URL, every matching pin loaded page by page, a legend that toggles types. */
export function MapView({ tileUrl }: { tileUrl?: string }) {
  const [view, setView] = useUrlState(URL_DEFAULTS);
  const filters = useMemo(
    () => ({
      pinTypeId: view.type || undefined,
      userId: view.rep || undefined,
      territoryId: view.territory || undefined,
    }),
    [view.type, view.rep, view.territory],
  );
  const hidden = useMemo(() => new Set(view.hidden.split(",").filter(Boolean)), [view.hidden]);

  const pinTypes = usePinTypes();
  const { pins, total, loaded, loading, error, refetch } = useAllPins(filters);
  const reps = useRepChoices(pins, filters, view.rep);
  const [renderedCount, setRenderedCount] = useState(0);
  const phone = !useMediaQuery(SM_UP, true);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersButton = useRef<HTMLButtonElement>(null);
  const closeFilters = useCallback(() => {
    setFiltersOpen(false);
    // Focus goes back where it came from, as a dialog's would.
    requestAnimationFrame(() => filtersButton.current?.focus());
  }, []);

  // Type list from the API; types seen on pins but missing there (should not happen) still show.
  const types = useMemo(() => {
    const byId = new Map((pinTypes.data ?? []).map((t) => [t.id, t]));
    for (const pin of pins) if (!byId.has(pin.pin_type.id)) byId.set(pin.pin_type.id, pin.pin_type);
    return [...byId.values()];
  }, [pinTypes.data, pins]);
  const colors = useMemo(() => new Map(types.map((t) => [t.id, t.color])), [types]);

  const counts = useMemo(() => {
    const out = new Map<string, number>();
    for (const pin of pins) out.set(pin.pin_type.id, (out.get(pin.pin_type.id) ?? 0) + 1);
    return out;
  }, [pins]);
  const visiblePins = useMemo(
    () => (hidden.size === 0 ? pins : pins.filter((p) => !hidden.has(p.pin_type.id))),
    [pins, hidden],
  );
  const entries: LegendEntry[] = types
    .filter((t) => !filters.pinTypeId || t.id === filters.pinTypeId)
    .map((type) => ({ type, count: counts.get(type.id) ?? 0, visible: !hidden.has(type.id) }));

  const toggle = (typeId: string) => {
    const next = new Set(hidden);
    if (next.has(typeId)) next.delete(typeId);
    else next.add(typeId);
    setView({ hidden: [...next].join(",") || null });
  };

  const tools = useFieldTools({
    pins,
    types,
    selectedId: view.pin,
    select: (id) => setView({ pin: id }),
  });

  const editor = useTerritoryEditor();
  const chosenTerritory = editor.territories.find((t) => t.id === view.territory);
  // The view goes to the territory being edited, else to the one the pins are filtered by.
  const territoryFocus = editor.editing
    ? { key: `edit:${editor.editing.id}`, polygon: editor.editing.polygon }
    : chosenTerritory
      ? { key: `filter:${chosenTerritory.id}`, polygon: chosenTerritory.polygon }
      : null;

  const MapComponent = editor.canEdit ? PinMapWithDrawing : PinMap;

  const fitKey = `${filters.pinTypeId ?? ""}|${filters.userId ?? ""}|${filters.territoryId ?? ""}`;
  const percent = total ? Math.min(100, Math.round((loaded / total) * 100)) : 0;

  const activeFilters = [view.type, view.rep, view.territory, view.hidden].filter(Boolean).length;
  const clearFilters = () => setView({ type: null, rep: null, territory: null, hidden: null, pin: null });
  const closeOthers = () => {
    // One tool at a time: a pin's sheet or a knock in progress closes.
    tools.field.cancel();
    setView({ pin: null });
  };

  const fields = (
    <>
      <Field label="Pin type" className="min-w-0 sm:w-52">
        <Select
          value={view.type}
          onChange={(e) => setView({ type: e.target.value || null })}
          placeholder="All types"
          options={(pinTypes.data ?? []).map((t) => ({ value: t.id, label: t.label }))}
        />
      </Field>
      <Field label="Created by" className="min-w-0 sm:w-60">
        <Select
          value={view.rep}
          onChange={(e) => setView({ rep: e.target.value || null })}
          placeholder="Everyone"
          options={reps.map((u) => ({ value: u.user_id, label: u.name || u.email }))}
        />
      </Field>
      <Field label="Territory" className="min-w-0 sm:w-52">
        <Select
          value={view.territory}
          onChange={(e) => setView({ territory: e.target.value || null })}
          placeholder="All territories"
          options={territoryOptions(editor.territories, view.territory)}
        />
      </Field>
    </>
  );

  const status = error ? (
    <span className="text-red-700">
      Could not load pins: {error.message}{" "}
      <button type="button" className="font-medium underline" onClick={refetch}>
        Retry
      </button>
    </span>
  ) : loading ? (
    <span className="inline-flex w-full max-w-xs flex-col items-end gap-1 max-sm:items-start">
      <span data-testid="pins-progress">
        Loading pins {formatNumber(loaded)}
        {total !== null ? ` / ${formatNumber(total)}` : ""}
      </span>
      <span
        role="progressbar"
        aria-label="Loading pins"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="block h-1.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <span className="block h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </span>
    </span>
  ) : null;
  const shownText = `${formatNumber(visiblePins.length)} of ${formatNumber(total ?? 0)} pins shown`;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      {phone ? null : (
        <div className="flex flex-wrap items-end gap-3">
          {fields}
          {editor.canEdit ? (
            <div className="flex items-end">
              <TerritoriesButton editor={editor} onOpen={closeOthers} />
            </div>
          ) : null}
          <div className="flex min-h-10 flex-1 items-center gap-3">
            {activeFilters > 0 ? (
              <Button variant="ghost" onClick={clearFilters}>
                Clear filters
              </Button>
            ) : null}
            <div
              className="flex min-w-0 flex-1 justify-end text-right text-sm text-slate-600"
              aria-live="polite"
            >
              {status ?? <span>{shownText}</span>}
            </div>
          </div>
        </div>
      )}

      <div
        className="relative isolate min-h-0 flex-1 overflow-hidden ring-slate-900/10 sm:min-h-[420px] sm:rounded-lg sm:ring-1"
        data-testid="pin-map"
        data-loading={loading}
        data-total={total ?? ""}
        data-rendered-pins={renderedCount}
        data-pending-knocks={tools.outbox.pending.length}
      >
        <MapComponent
          pins={visiblePins}
          colors={colors}
          loading={loading}
          fitKey={fitKey}
          tileUrl={tileUrl}
          onRendered={setRenderedCount}
          focusPinId={view.pin || undefined}
          // While territories are edited a tap on a pin places a corner, it opens no sheet.
          onSelect={editor.open ? undefined : tools.onSelect}
          field={tools.layer}
          territories={{ ...editor.layer, focus: territoryFocus }}
          autoFit={!territoryFocus}
        />
        {/* On a phone the filters wait behind a button: the map keeps the whole screen. */}
        {phone && !editor.open ? (
          <div className="pointer-events-none absolute top-2.5 left-14 z-[1000] flex max-w-[calc(100%-14rem)] min-w-0 flex-col items-start gap-2">
            <button
              type="button"
              ref={filtersButton}
              onClick={() => {
                closeOthers();
                setFiltersOpen(true);
              }}
              aria-expanded={filtersOpen}
              data-testid="map-filters-button"
              data-count={activeFilters}
              className="pointer-events-auto inline-flex min-h-11 items-center gap-1.5 rounded-md bg-white px-3 text-sm font-medium text-slate-800 shadow-md ring-1 ring-slate-900/10 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
                <path d="M3 5h14M6 10h8M8.5 15h3" stroke="currentColor" strokeWidth="2" fill="none" />
              </svg>
              Filters
              {activeFilters > 0 ? (
                <span className="rounded-full bg-brand-600 px-1.5 text-xs leading-5 font-semibold text-white">
                  {activeFilters}
                  <span className="sr-only"> active</span>
                </span>
              ) : null}
            </button>
            {status ? (
              <div
                className="pointer-events-auto w-40 rounded-md bg-white/95 px-2 py-1 text-xs text-slate-700 shadow-sm"
                aria-live="polite"
              >
                {status}
              </div>
            ) : null}
          </div>
        ) : null}
        <MapLegend
          entries={entries}
          onToggle={toggle}
          onShowAll={() => setView({ hidden: null })}
          renderedCount={renderedCount}
        />
        {editor.open ? (
          <TerritoryTools
            editor={editor}
            onDeleted={(id) => {
              if (view.territory === id) setView({ territory: null });
            }}
          />
        ) : (
          <FieldTools tools={tools} />
        )}
        {phone && filtersOpen && !editor.open ? (
          <MapSheet title="Filters" onClose={closeFilters} testId="filters-sheet" compact>
            <div className="space-y-3">
              {fields}
              {editor.canEdit ? (
                <TerritoriesButton
                  editor={editor}
                  onOpen={() => {
                    setFiltersOpen(false);
                    closeOthers();
                  }}
                />
              ) : null}
              <p className="text-sm text-slate-600" aria-live="polite">
                {status ?? shownText}
              </p>
              <div className="flex gap-2">
                {activeFilters > 0 ? (
                  <Button variant="ghost" className="h-11 flex-1" onClick={clearFilters}>
                    Clear filters
                  </Button>
                ) : null}
                <Button className="h-11 flex-1" onClick={closeFilters}>
                  Show the map
                </Button>
              </div>
            </div>
          </MapSheet>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Reps who created pins, for the "Created by" choice. With a rep chosen the loaded set holds only
 * that rep's pins, so the reps of the set without the rep filter are used when it is cached.
 */
function useRepChoices(pins: readonly Pin[], filters: PinFilters, selected: string) {
  const queryClient = useQueryClient();
  const wider = filters.userId
    ? queryClient.getQueryData<PinSet>(
        pinKeys.map({ pinTypeId: filters.pinTypeId, territoryId: filters.territoryId }),
      )
    : undefined;
  return useMemo(() => {
    const byId = new Map<string, PinUser>();
    for (const pin of pins) byId.set(pin.created_by.user_id, pin.created_by);
    for (const pin of wider?.pins ?? []) byId.set(pin.created_by.user_id, pin.created_by);
    if (selected && !byId.has(selected))
      byId.set(selected, { user_id: selected, name: "Selected user", email: "" });
    return [...byId.values()].sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email));
  }, [pins, wider, selected]);
}

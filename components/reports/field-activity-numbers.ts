import type { SortingState } from "@tanstack/react-table";
import type { FieldActivityReport } from "@/lib/schemas/reports";

/*
 * The pure parts of the knock-to-cash page: every number comes from the report endpoint; these only
 * arrange it.
 */

export type FieldActivityTotals = FieldActivityReport["totals"];
export type FieldActivityConversion = FieldActivityReport["conversion"];

/**
 * The current calendar month as `from` and `to` dates (YYYY-MM-DD). In UTC, as the API reads a
 * date (its whole UTC day), and so that the server's render and the browser's agree.
 */
export function currentMonthRange(now: Date): { from: string; to: string } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return { from: day(new Date(Date.UTC(year, month, 1))), to: day(new Date(Date.UTC(year, month + 1, 0))) };
}

export type FunnelStepKey = "knocks" | "leads" | "won" | "customers";

export interface FunnelStep {
  key: FunnelStepKey;
  label: string;
  /** The step's things in a sentence ("12% of won leads"). */
  noun: string;
  value: number;
  /** Bar length, 0..1: the value over the largest step (a rep's leads can outnumber their knocks). */
  share: number;
  /** This step over the one before it (the API's); null for the first step or after an empty one. */
  conversion: number | null;
}

export interface FunnelCash {
  collected: number;
  saleValue: number;
  /** Collected over sale value (null without a sale): the cash step's bar and percentage. */
  rate: number | null;
}

const STEPS: readonly { key: FunnelStepKey; label: string; noun: string }[] = [
  { key: "knocks", label: "Knocks", noun: "knocks" },
  { key: "leads", label: "Leads", noun: "leads" },
  { key: "won", label: "Won", noun: "won leads" },
  { key: "customers", label: "Customers", noun: "customers" },
];

/** The funnel from knocks to customers, each step with the report's conversion from the previous one. */
export function funnelSteps(totals: FieldActivityTotals, conversion: FieldActivityConversion): FunnelStep[] {
  const largest = Math.max(0, ...STEPS.map((step) => totals[step.key]));
  return STEPS.map((step): FunnelStep => ({
    ...step,
    value: totals[step.key],
    share: largest > 0 ? totals[step.key] / largest : 0,
    conversion: step.key === "knocks" ? null : conversion[step.key],
  }));
}

/** The funnel's last step: money, so apart from the counts and measured against what was sold. */
export function funnelCash(totals: FieldActivityTotals, conversion: FieldActivityConversion): FunnelCash {
  return { collected: totals.collected, saleValue: totals.sale_value, rate: conversion.collected };
}

export interface OutcomeColumn {
  pinTypeId: string;
  label: string;
  color: string;
}

/**
 * One column per outcome knocked in the range, in the company's pin type order; a pin type the
 * list does not know (removed since, or not loaded yet) keeps its id as a grey column at the end.
 */
export function outcomeColumns(
  pinTypes: readonly { id: string; label: string; color: string }[],
  knocksByPinType: Record<string, number>,
): OutcomeColumn[] {
  const knocked = Object.keys(knocksByPinType).filter((id) => (knocksByPinType[id] ?? 0) > 0);
  const known = pinTypes
    .filter((type) => knocked.includes(type.id))
    .map((type) => ({ pinTypeId: type.id, label: type.label, color: type.color }));
  const unknown = knocked
    .filter((id) => !pinTypes.some((type) => type.id === id))
    .sort()
    .map((id) => ({ pinTypeId: id, label: id, color: "#94a3b8" }));
  return [...known, ...unknown];
}

/**
 * The rows in the table's sort order (the whole report is on the page, so it sorts here). Ties,
 * and no sort at all, keep the API's order: the leaderboard by money collected.
 */
export function sortRows<T>(
  rows: readonly T[],
  sorting: SortingState,
  valueOf: (row: T, columnId: string) => number | string,
): T[] {
  const [first] = sorting;
  if (!first) return [...rows];
  const direction = first.desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = valueOf(a, first.id);
    const y = valueOf(b, first.id);
    const order =
      typeof x === "number" && typeof y === "number"
        ? x - y
        : String(x).localeCompare(String(y), undefined, { sensitivity: "base" });
    return order * direction;
  });
}

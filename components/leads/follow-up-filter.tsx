"use client";

import type { SortingState } from "@tanstack/react-table";
import { Button } from "@/components/ui";
import { useUrlState } from "@/lib/query/url-state";

/**
 * The follow-up views (`due=today|overdue` in the URL), "today" being the user's local day; each
 * is a follow-up range of GET /leads, soonest first unless sorted otherwise.
 */
export type FollowUpView = "" | "today" | "overdue";

const VIEWS: { value: FollowUpView; label: string }[] = [
  { value: "", label: "All" },
  { value: "today", label: "Due today" },
  { value: "overdue", label: "Overdue" },
];

const SOONEST_FIRST: SortingState = [{ id: "follow_up_date", desc: false }];

/**
 * The view's filters: its range as ISO instants (the local day's first and last millisecond, or
 * all before it) and `open`, as a won or lost lead has nothing left to follow up.
 */
export function followUpRange(view: FollowUpView, now = new Date()) {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  if (view === "today") {
    return {
      follow_up_from: start.toISOString(),
      follow_up_to: new Date(next.getTime() - 1).toISOString(),
      open: true,
    };
  }
  if (view === "overdue") return { follow_up_to: new Date(start.getTime() - 1).toISOString(), open: true };
  return {};
}

/** The follow-up view in the URL: its range for the list query, its buttons, its default order. */
export function useFollowUpView() {
  // page: a new view starts on its first page.
  const [state, setState] = useUrlState({ due: "", page: "1" });
  const view: FollowUpView = state.due === "today" || state.due === "overdue" ? state.due : "";
  const select = (value: FollowUpView) => setState({ due: value || null, page: null });
  return {
    view,
    range: followUpRange(view),
    defaultSorting: view ? SOONEST_FIRST : undefined,
    extraFilters: {
      active: view !== "",
      clear: () => select(""),
      node: <FollowUpButtons view={view} onSelect={select} />,
    },
  };
}

function FollowUpButtons({ view, onSelect }: { view: FollowUpView; onSelect: (view: FollowUpView) => void }) {
  return (
    <div role="group" aria-label="Follow-up" className="mb-1 flex gap-1">
      {VIEWS.map((option) => (
        <Button
          key={option.value || "all"}
          size="sm"
          variant={view === option.value ? "primary" : "secondary"}
          aria-pressed={view === option.value}
          onClick={() => onSelect(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </div>
  );
}

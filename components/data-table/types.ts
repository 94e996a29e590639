import type { RowData } from "@tanstack/react-table";
import type { ReactNode } from "react";

/** What a column can tell the shared table besides TanStack's own options. */
declare module "@tanstack/react-table" {
  // Type parameters must match TanStack's declaration to merge, even if unused here.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Name in the "Columns" menu when the header is not a plain string. */
    label?: string;
    /** Numbers and money align right so digits line up. */
    align?: "left" | "right";
    /** Extra classes for this column's cells (e.g. "whitespace-nowrap", "min-w-48"). */
    cellClassName?: string;
    /**
     * Cells keep to one line by default (the table scrolls sideways instead); `wrap` lets this
     * column's cells wrap, so it gives way first when space is short (e.g. tags, notes).
     */
    wrap?: boolean;
    /** Lets a long header break onto two lines (e.g. "Projected value") so the column stays narrow. */
    wrapHeader?: boolean;
    /** The column cannot be hidden from the "Columns" menu (e.g. the name that links to the record). */
    alwaysVisible?: boolean;
    /** The value on a phone's card when it should differ from the cell (a phone as a `tel:` link). */
    cardCell?: (row: TData) => ReactNode;
  }
}

/**
 * How a list shows on phones (below Tailwind's `sm`, 640 px): a card per row instead of the
 * table, made of the cells of a few of its columns (by column id).
 */
export interface CardLayout {
  /** The column whose cell heads the card: the name that links to the record. */
  title: string;
  /** A column whose cell sits before the title (a selection checkbox); its header goes above the cards. */
  leading?: string;
  /** The columns shown under the title, each with its label, two to a row. */
  fields: readonly string[];
}

export const DEFAULT_PAGE_SIZES = [25, 50, 100, 250, 1000] as const;

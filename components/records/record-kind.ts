/**
 * The two kinds of contact record the dashboard lists, shows and edits the same way (leads and
 * customers): the words and the addresses the shared list, detail and outcome pieces use.
 */
export type RecordKind = "lead" | "customer";

export const RECORD_WORDS = {
  lead: { one: "lead", many: "leads", One: "Lead", Many: "Leads" },
  customer: { one: "customer", many: "customers", One: "Customer", Many: "Customers" },
} as const satisfies Record<RecordKind, { one: string; many: string; One: string; Many: string }>;

/** The list page of a kind: /leads, /customers. */
export function recordListHref(kind: RecordKind): string {
  return `/${RECORD_WORDS[kind].many}`;
}

const lastViewKey = (kind: RecordKind) => `fieldcrm:last-view:${kind}`;

/** Remembers the list's current view (its URL), for the record page's way back to it. */
export function rememberListView(kind: RecordKind, url: string): void {
  try {
    sessionStorage.setItem(lastViewKey(kind), url);
  } catch {
    // Storage refused (private mode, quota): the way back is the plain list.
  }
}

/** The list as this tab last showed it (filters, page, sort), else the plain list. */
export function lastListView(kind: RecordKind): string {
  const list = recordListHref(kind);
  try {
    const url = sessionStorage.getItem(lastViewKey(kind));
    // Only this list's own path, whatever the storage holds.
    return url && (url === list || url.startsWith(`${list}?`)) ? url : list;
  } catch {
    return list;
  }
}

/** A record's page: /leads/<id>, /customers/<id>. */
export function recordHref(kind: RecordKind, id: string): string {
  return `${recordListHref(kind)}/${encodeURIComponent(id)}`;
}

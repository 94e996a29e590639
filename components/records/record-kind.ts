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

/** A record's page: /leads/<id>, /customers/<id>. */
export function recordHref(kind: RecordKind, id: string): string {
  return `${recordListHref(kind)}/${encodeURIComponent(id)}`;
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { isoUtc, toNumber } from "@/lib/domain/reports/sql";
import type { Pin } from "@/lib/schemas/pins";

/** A pin row as pinColumns selects it. */
export interface PinRow extends Record<string, unknown> {
  id: string;
  created_at: string;
  latitude: number;
  longitude: number;
  user_id: string;
  user_email: string | null;
  user_name: string | null;
  pin_type_id: string;
  pin_type_color: string;
  pin_type_label: string;
  street1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  notes: string | null;
  lead_id: string | null;
  updated_at: string;
  visit_count: number | string;
  last_visit_at: string | null;
}

/**
 * The select list of a pin record, from the pins row `alias` joined with pinJoins: the pin type
 * as `t`, the creator as `u`.
 */
export function pinColumns(alias: string): SQL {
  const p = sql.raw(alias);
  return sql`${p}.id, ${isoUtc(sql`${p}.created_at`)} as created_at, ${p}.latitude, ${p}.longitude,
    ${p}.created_by as user_id, u.email as user_email, u.name as user_name,
    t.id as pin_type_id, t.color as pin_type_color, t.label as pin_type_label,
    ${p}.street1, ${p}.city, ${p}.state, ${p}.zip, ${p}.notes, ${p}.lead_id,
    ${isoUtc(sql`${p}.updated_at`)} as updated_at, ${p}.visit_count,
    ${isoUtc(sql`${p}.last_visit_at`)} as last_visit_at`;
}

/** The pin type (`t`) and creator (`u`) of the pins row `alias`. */
export function pinJoins(alias: string): SQL {
  const p = sql.raw(alias);
  return sql`join pin_types t on t.company_id = ${p}.company_id and t.id = ${p}.pin_type_id
    left join users u on u.company_id = ${p}.company_id and u.id = ${p}.created_by`;
}

export function toPin(row: PinRow): Pin {
  return {
    id: row.id,
    created_at: row.created_at,
    created_by: { email: row.user_email ?? "", name: row.user_name ?? "", user_id: row.user_id },
    location: [toNumber(row.latitude), toNumber(row.longitude)],
    pin_type: { id: row.pin_type_id, color: row.pin_type_color, label: row.pin_type_label },
    address: { street1: row.street1, city: row.city, state: row.state, zip: row.zip },
    notes: row.notes,
    lead_id: row.lead_id,
    updated_at: row.updated_at,
    visit_count: toNumber(row.visit_count),
    last_visit_at: row.last_visit_at,
  };
}

import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  customType,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { changeFeedIndex, changePosition, createdAt, tenantKey, updatedAt } from "./columns";
import { leads } from "./leads";
import { users } from "./users";

export const pinTypes = pgTable(
  "pin_types",
  {
    ...tenantKey(),
    label: text("label").notNull(),
    /** #rgb or #rrggbb. */
    color: text("color").notNull(),
    /** The settings' order of the types (sheet buttons, legend); GET /pin-types stays by label. */
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check("pin_types_color_check", sql`${t.color} ~ '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$'`),
    index("pin_types_label_idx").on(t.companyId, t.label, t.id),
  ],
);

export const pins = pgTable(
  "pins",
  {
    ...tenantKey(),
    pinTypeId: text("pin_type_id").notNull(),
    createdBy: text("created_by").notNull(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...changePosition(),
    street1: text("street1"),
    city: text("city"),
    state: text("state"),
    zip: text("zip"),
    notes: text("notes"),
    /** The lead made from this door (extensions.md E5). */
    leadId: text("lead_id"),
    /** The client's own id of a create: a retried offline knock answers the pin it made. */
    clientId: text("client_id"),
    /** Kept with each visit written (pin_visits), so lists need not count them. */
    visitCount: integer("visit_count").notNull().default(0),
    lastVisitAt: timestamp("last_visit_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    foreignKey({
      name: "pins_lead_fk",
      columns: [t.companyId, t.leadId],
      foreignColumns: [leads.companyId, leads.id],
    }),
    foreignKey({
      name: "pins_pin_type_fk",
      columns: [t.companyId, t.pinTypeId],
      foreignColumns: [pinTypes.companyId, pinTypes.id],
    }),
    foreignKey({
      name: "pins_created_by_fk",
      columns: [t.companyId, t.createdBy],
      foreignColumns: [users.companyId, users.id],
    }),
    check("pins_latitude_check", sql`${t.latitude} between -90 and 90`),
    check("pins_longitude_check", sql`${t.longitude} between -180 and 180`),
    changeFeedIndex("pins_change_idx", t),
    index("pins_created_idx").on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index("pins_type_created_idx").on(t.companyId, t.pinTypeId, t.createdAt.desc(), t.id.desc()),
    index("pins_user_created_idx").on(t.companyId, t.createdBy, t.createdAt.desc(), t.id.desc()),
    // bbox and territory filters: `point(longitude, latitude) <@ box|polygon` within the tenant
    // (btree_gist puts company_id in the same GiST index).
    index("pins_location_idx").using("gist", t.companyId, sql`point(${t.longitude}, ${t.latitude})`),
    index("pins_updated_idx").on(t.companyId, t.updatedAt.desc(), t.id.desc()),
    index("pins_lead_idx")
      .on(t.companyId, t.leadId)
      .where(sql`${t.leadId} is not null`),
    uniqueIndex("pins_client_id_idx")
      .on(t.companyId, t.clientId)
      .where(sql`${t.clientId} is not null`),
  ],
);

/**
 * Each knock at a door (extensions.md E5): a pin's create and each change of its pin type. The
 * id is a sequence so that the import can write one per pin in a single statement.
 */
export const pinVisits = pgTable(
  "pin_visits",
  {
    companyId: text("company_id").notNull(),
    id: bigint("id", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    pinId: text("pin_id").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The user who knocked. */
    userId: text("user_id").notNull(),
    pinTypeId: text("pin_type_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({
      name: "pin_visits_pin_fk",
      columns: [t.companyId, t.pinId],
      foreignColumns: [pins.companyId, pins.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "pin_visits_user_fk",
      columns: [t.companyId, t.userId],
      foreignColumns: [users.companyId, users.id],
    }),
    foreignKey({
      name: "pin_visits_pin_type_fk",
      columns: [t.companyId, t.pinTypeId],
      foreignColumns: [pinTypes.companyId, pinTypes.id],
    }),
    // A door's history, newest first.
    index("pin_visits_pin_idx").on(t.companyId, t.pinId, t.at.desc(), t.id.desc()),
    // The knock-to-cash report: a range of knocks by user and outcome, read from the index alone.
    index("pin_visits_at_idx").on(t.companyId, t.at, t.userId, t.pinTypeId),
  ],
);

/** PostgreSQL's own `polygon` type: the territory's ring, for `point <@ polygon` tests. */
const nativePolygon = customType<{ data: string; driverData: string }>({
  dataType: () => "polygon",
});

/** A GeoJSON Polygon: one outer ring of [longitude, latitude] positions, closed. */
export interface GeoJsonPolygon {
  type: "Polygon";
  coordinates: [number, number][][];
}

/** Named areas drawn on the map with the reps assigned to them (extensions.md E6). */
export const territories = pgTable(
  "territories",
  {
    ...tenantKey(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    /** The polygon as the API answers it. */
    polygon: jsonb("polygon").$type<GeoJsonPolygon>().notNull(),
    /** The same ring as a native polygon: `point(longitude, latitude) <@ area`. */
    area: nativePolygon("area").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check("territories_color_check", sql`${t.color} ~ '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$'`),
    index("territories_name_idx").on(t.companyId, t.name, t.id),
  ],
);

export const territoryAssignees = pgTable(
  "territory_assignees",
  {
    companyId: text("company_id").notNull(),
    territoryId: text("territory_id").notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.territoryId, t.userId] }),
    foreignKey({
      name: "territory_assignees_territory_fk",
      columns: [t.companyId, t.territoryId],
      foreignColumns: [territories.companyId, territories.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "territory_assignees_user_fk",
      columns: [t.companyId, t.userId],
      foreignColumns: [users.companyId, users.id],
    }),
    index("territory_assignees_user_idx").on(t.companyId, t.userId),
  ],
);

import { sql } from "drizzle-orm";
import { check, doublePrecision, foreignKey, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, tenantKey } from "./columns";
import { users } from "./users";

export const pinTypes = pgTable(
  "pin_types",
  {
    ...tenantKey(),
    label: text("label").notNull(),
    /** #rgb or #rrggbb. */
    color: text("color").notNull(),
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
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
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
    index("pins_created_idx").on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index("pins_type_created_idx").on(t.companyId, t.pinTypeId, t.createdAt.desc(), t.id.desc()),
    index("pins_user_created_idx").on(t.companyId, t.createdBy, t.createdAt.desc(), t.id.desc()),
  ],
);

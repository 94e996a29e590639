import { foreignKey, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { tenantKey } from "./columns";

/**
 * The reasons a lead is lost, as the company's admin keeps them (settings, next to the pipeline).
 * A lead stores the chosen reason's label in `lost_reason`, so renaming or removing a reason
 * leaves the leads already lost with the words they were lost for.
 */
export const lostReasons = pgTable(
  "lost_reasons",
  {
    ...tenantKey(),
    label: text("label").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
  ],
);

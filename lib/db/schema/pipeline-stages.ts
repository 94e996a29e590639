import { sql } from "drizzle-orm";
import { check, foreignKey, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { StageKind } from "@/lib/values/enums";
import { companies } from "./companies";

/**
 * A company's lead pipeline (extensions.md E2); no rows means the default pipeline. A lead's
 * `stage` stores the key, which survives renames and moves; `position` orders the stages.
 */
export const pipelineStages = pgTable(
  "pipeline_stages",
  {
    companyId: text("company_id").notNull(),
    key: text("key").notNull(),
    label: text("label").notNull(),
    /** #rrggbb. */
    color: text("color").notNull(),
    kind: text("kind").$type<StageKind>().notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.key] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check("pipeline_stages_kind_check", sql`${t.kind} in ('open', 'won', 'lost')`),
    check("pipeline_stages_color_check", sql`${t.color} ~ '^#[0-9a-f]{6}$'`),
  ],
);

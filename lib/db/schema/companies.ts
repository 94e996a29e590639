import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** The tenant itself. Distributed on `id`, colocated with every table's `company_id`. */
export const companies = pgTable("companies", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

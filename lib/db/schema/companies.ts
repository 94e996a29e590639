import { boolean, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** The tenant itself. Distributed on `id`, colocated with every table's `company_id`. */
export const companies = pgTable("companies", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Every user must have a second factor: one without is led through setup at sign-in. */
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  createdAt: createdAt(),
});

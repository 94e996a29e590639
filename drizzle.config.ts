import { defineConfig } from "drizzle-kit";

// Migrations are generated from the schema and committed; `npm run db:migrate` applies them on either engine.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/index.ts",
  out: "./drizzle",
});

// npm run dev – on an empty database, migrates and loads the demo data, printing the URL, demo
// sign-ins and key; then runs `next dev`.
import { eq } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { DirectoryInUseError } from "@/lib/db/directory-lock";
import { companies } from "@/lib/db/schema";
import { env, parseDatabaseUrl } from "@/lib/env";
import { createProgressBar } from "@/lib/import";
import { DEMO_COMPANIES, formatDemoCredentials, isDatabaseEmpty, seedDemoData } from "@/lib/seed";
import { BULK_WORK } from "./database-options";
import { runNext } from "./next-process";

function describeTarget(target: ReturnType<typeof parseDatabaseUrl>): string {
  if (target.kind === "pglite-file") return `embedded PostgreSQL (PGlite) in ${target.dir}`;
  if (target.kind === "pglite-memory") return "embedded PostgreSQL (PGlite) in memory";
  return `PostgreSQL at ${new URL(target.url).host}`;
}

/** Migrates, seeds an empty database, and says whether the demo data is there. */
async function prepareDatabase(target: ReturnType<typeof parseDatabaseUrl>): Promise<boolean> {
  const database = await openDatabase(target, BULK_WORK);
  try {
    await database.migrate();
    if (await isDatabaseEmpty(database.db)) {
      console.log("Empty database: loading the demo data…");
      let bar: ReturnType<typeof createProgressBar> | undefined;
      await seedDemoData(database.db, {
        onProgress: ({ phase, done, total }) => {
          if (phase !== "writing") return;
          bar ??= createProgressBar(process.stderr, total, "Seeding");
          bar.update(done);
        },
      }).catch((error: unknown) => {
        // Whatever is printed next (the error) starts on its own line, not on the bar's.
        bar?.stop("failed");
        throw error;
      });
      bar?.finish();
    }
    const demo = await database.db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.id, DEMO_COMPANIES.pest.id));
    return demo.length > 0;
  } finally {
    // The embedded database serves one process at a time: release it before Next opens it.
    await database.close();
  }
}

async function main() {
  const { DATABASE_URL, PORT } = env();
  const target = parseDatabaseUrl(DATABASE_URL);
  let hasDemo = false;
  if (target.kind === "pglite-memory") {
    console.log(
      "DATABASE_URL=memory: the server's database lives in its memory and starts empty (no demo data).",
    );
  } else {
    hasDemo = await prepareDatabase(target);
  }
  const lines = ["", `FieldCRM: http://localhost:${PORT}`, `Database: ${describeTarget(target)}`];
  if (hasDemo) lines.push("", formatDemoCredentials());
  else if (target.kind !== "pglite-memory")
    lines.push("The database has data of its own: no demo data was loaded.");
  console.log(`${lines.join("\n")}\n`);
  runNext("dev", PORT);
}

main().catch((error: unknown) => {
  console.error(error instanceof DirectoryInUseError ? `Error: ${error.message}` : error);
  process.exit(1);
});

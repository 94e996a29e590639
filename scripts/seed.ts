// npm run db:seed – loads the deterministic demo data (lib/seed) into DATABASE_URL's database.
// Seeding again changes nothing: the demo document is imported, upserted by id.
import { openDatabase } from "@/lib/db/client";
import { env, parseDatabaseUrl } from "@/lib/env";
import { createProgressBar, formatProblem, ImportRefusedError } from "@/lib/import";
import { formatDemoCredentials, seedDemoData } from "@/lib/seed";
import { formatCounts } from "./import-output";
import { runCli } from "./cli";
import { BULK_WORK } from "./database-options";

runCli(async () => {
  const database = await openDatabase(parseDatabaseUrl(env().DATABASE_URL), BULK_WORK);
  try {
    await database.migrate();
    let bar: ReturnType<typeof createProgressBar> | undefined;
    const result = await seedDemoData(database.db, {
      onProgress: ({ phase, done, total }) => {
        if (phase !== "writing") return;
        bar ??= createProgressBar(process.stderr, total, "Seeding");
        bar.update(done);
      },
    }).catch((error: unknown) => {
      bar?.stop("refused");
      // The demo document is valid by construction; if the database refuses it, say why.
      if (error instanceof ImportRefusedError)
        for (const problem of error.problems.slice(0, 20)) console.error(formatProblem(problem));
      throw error;
    });
    bar?.finish();
    console.log(`Demo data loaded (${database.engine}):`);
    for (const line of formatCounts(result.counts)) console.log(line);
    console.log(`\n${formatDemoCredentials()}`);
  } finally {
    await database.close();
  }
});

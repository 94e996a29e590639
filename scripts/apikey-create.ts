// npm run apikey:create -- --company <id> --scopes a,b [--name n] [--daily-limit n]
// Creates an API key and prints it once; only its SHA-256 is stored.
import { parseArgs } from "node:util";
import { SCOPES } from "@/lib/values/scopes";
import { openDatabase } from "@/lib/db/client";
import { createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { env, parseDatabaseUrl } from "@/lib/env";
import { CliError, runCli } from "./cli";

const USAGE = `Usage: npm run apikey:create -- --company <id> --scopes a,b [--name n] [--daily-limit n]
Scopes: ${SCOPES.join(", ")}`;

function readArgs() {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2).filter((a) => a !== "--"),
      options: {
        company: { type: "string" },
        scopes: { type: "string" },
        name: { type: "string" },
        "daily-limit": { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${USAGE}`);
  }
  if (!values.company?.trim()) throw new CliError(`--company is required.\n${USAGE}`);
  if (!values.scopes?.trim()) throw new CliError(`--scopes is required.\n${USAGE}`);
  const scopes = values.scopes
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new CliError(`Unknown scope${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}.\n${USAGE}`);
  let dailyLimit: number | undefined;
  if (values["daily-limit"] !== undefined) {
    if (!/^\d+$/.test(values["daily-limit"].trim()))
      throw new CliError(`--daily-limit must be a whole number, got "${values["daily-limit"]}".`);
    dailyLimit = Number(values["daily-limit"]);
  }
  return { companyId: values.company.trim(), scopes, name: values.name ?? "CLI key", dailyLimit };
}

runCli(async () => {
  const args = readArgs();
  const database = await openDatabase(parseDatabaseUrl(env().DATABASE_URL));
  try {
    await database.migrate();
    const { key, apiKey } = await createApiKey({ db: database.db, ...args }).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw new CliError(`Unknown company "${args.companyId}".`);
      if (error instanceof ValidationError) throw new CliError(error.message);
      throw error;
    });
    console.log(
      `Created API key "${apiKey.name}" (${apiKey.id}) for company ${args.companyId}\n` +
        `  scopes: ${apiKey.scopes.join(", ")}\n  daily limit: ${apiKey.dailyLimit} requests\n\n` +
        `${key}\n\nThis is the only time the key is shown: only its SHA-256 is stored.`,
    );
  } finally {
    await database.close();
  }
});

import { DirectoryInUseError } from "@/lib/db/directory-lock";

/** Runs a CLI command: a clear message and exit status 1 on failure, no stack for known errors. */
export function runCli(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof CliError || error instanceof DirectoryInUseError) {
        console.error(`Error: ${error.message}`);
      } else {
        console.error(error);
      }
      process.exit(1);
    },
  );
}

/** An error the user caused (bad arguments, bad file): printed without a stack trace. */
export class CliError extends Error {
  override name = "CliError";
}

import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "@/lib/env";

/** Sets environment variables (undefined: unset) for the enclosing describe, restoring them after. */
export function withEnv(values: Record<string, string | undefined>) {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const [k, v] of Object.entries(values)) {
      saved[k] = process.env[k];
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
  });
}

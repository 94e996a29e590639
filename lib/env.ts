import { z } from "zod";

/**
 * The only reader of process.env. Values are validated once, lazily, so that importing this
 * module during `next build` never fails or opens anything.
 */
const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z
      .string()
      .trim()
      .optional()
      .refine(
        (v) => !v || v === "memory:" || v.startsWith("file:") || /^postgres(ql)?:\/\//.test(v),
        "DATABASE_URL must be unset, file:<dir>, memory: or postgres://…",
      ),
    /** Set by the test runner: tests on PostgreSQL create a database per test file on this server. */
    TEST_DATABASE_URL: z.string().trim().optional(),
    LOG_LEVEL: z.enum(["silent", "error", "info", "debug"]).default("info"),
    /** Milliseconds a database statement may take before the request answers 503. */
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(4000),
    DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
    /** HTTP port of `npm run dev` / `npm start` (as in Next.js). */
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /**
     * Server processes of `npm start`: a positive whole number or "auto" (one per core, resolved
     * by scripts/cluster.ts since pages bundle this module). Above 1 needs PostgreSQL; unset: 1.
     */
    WEB_CONCURRENCY: z
      .string()
      .trim()
      .optional()
      .refine((v) => !v || v === "auto" || /^[1-9]\d*$/.test(v), {
        error: (issue) => `must be a positive whole number or "auto", not ${JSON.stringify(issue.input)}`,
      })
      .transform((v): number | "auto" => (!v ? 1 : v === "auto" ? "auto" : Number(v))),
    /** Webhook URLs may point at loopback and private addresses (tests, local development only). */
    WEBHOOKS_ALLOW_PRIVATE: z
      .enum(["true", "false", ""])
      .optional()
      .transform((v) => v === "true"),
    /** `off`: this server process delivers no webhooks (a separate `npm run worker` does). */
    WEBHOOKS_WORKER: z.enum(["on", "off"]).default("on"),
    /**
     * Seconds a delivery attempt holds its delivery (the claim, see deliver.ts): after a process died
     * mid-send, the delivery is sent again once this is over and pg-boss has retried its expired job.
     * Keep it above the 10 s send timeout; tests shorten it (pg-boss then looks for expired jobs sooner).
     */
    WEBHOOKS_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** Outgoing mail server (`smtp://user:pass@host:587`, `smtps://…`); unset: no email is sent. */
    SMTP_URL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => !v || /^smtps?:\/\//.test(v), "SMTP_URL must be smtp://… or smtps://…"),
    /** The sender of invites and password resets; default `FieldCRM <no-reply@APP_URL's host>`. */
    MAIL_FROM: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    /**
     * The dashboard's public address (`https://crm.example.com`): links in emails point there, never
     * at a Host header a client chose. Needed with SMTP_URL; without, shown links use the request's.
     */
    APP_URL: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v.replace(/\/+$/, "") : undefined))
      .refine((v) => !v || /^https?:\/\/[^/?#]+$/.test(v), "APP_URL must be http(s)://host[:port], no path"),
  })
  .refine((e) => !e.SMTP_URL || e.APP_URL, {
    path: ["APP_URL"],
    message: "APP_URL is needed with SMTP_URL: the address that links in emails point to",
  });

export type Env = z.infer<typeof envSchema>;

/** A setting has a value it cannot have: the message names it and says what is allowed. */
export class InvalidEnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidEnvironmentError";
  }
}

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      throw new InvalidEnvironmentError(`Invalid environment: ${problems}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Tests change the environment between files; they call this to re-read it. */
export function resetEnvCache(): void {
  cached = undefined;
}

export type DatabaseTarget =
  { kind: "pglite-file"; dir: string } | { kind: "pglite-memory" } | { kind: "postgres"; url: string };

export function parseDatabaseUrl(url: string | undefined): DatabaseTarget {
  if (!url) return { kind: "pglite-file", dir: ".data/pglite" };
  if (url === "memory:") return { kind: "pglite-memory" };
  if (url.startsWith("file:"))
    return { kind: "pglite-file", dir: url.slice("file:".length) || ".data/pglite" };
  return { kind: "postgres", url };
}

/**
 * Settings the browser needs. Next.js inlines NEXT_PUBLIC_* values into client bundles only
 * where they are written out literally, so they are read here one by one, at build time.
 */
export const publicEnv = {
  /** Map tile URL template ({s}, {z}, {x}, {y}); unset: OpenStreetMap. */
  tileUrl: process.env.NEXT_PUBLIC_TILE_URL || undefined,
} as const;

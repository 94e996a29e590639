import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Layers point one way (README, "Architecture"): app → lib/api → lib/domain → lib/db, lib/auth beside
// lib/api, lib/values import-free. `from` is the resolved file, so `@/…` and relative imports both match.
const ours = ["./app", "./components", "./lib", "./proxy.ts", "./scripts", "./bench", "./system", "./e2e"];
const serverPackages = ["./node_modules/drizzle-orm", "./node_modules/pg", "./node_modules/@electric-sql"];
const layerZones = [
  {
    target: "./lib/values",
    from: [...ours, "./node_modules"],
    except: ["./values"],
    message: "lib/values is the ground floor: it imports nothing but itself.",
  },
  {
    target: "./lib/schemas",
    from: ours,
    except: ["./values", "./schemas"],
    message: "lib/schemas may import only lib/values (and zod).",
  },
  {
    target: "./lib/db",
    from: ours,
    // lib/env.ts: the one reader of process.env, which the client needs for DATABASE_URL.
    except: ["./values", "./db", "./env.ts"],
    message: "lib/db may import only lib/values and lib/env.",
  },
  {
    target: "./lib/auth",
    from: ["./lib/api", "./lib/domain", "./lib/query", "./lib/import", "./components", "./app"],
    message: "lib/auth sits beside lib/api, above lib/db: it must not import these.",
  },
  {
    target: "./lib/domain",
    from: ["./lib/api", "./lib/query", "./components", "./app"],
    message: "lib/domain knows nothing of HTTP or the pages.",
  },
  {
    target: "./lib/api",
    from: ["./lib/query", "./components", "./app"],
    message: "lib/api must not import the pages.",
  },
  {
    // Browser code: components, query hooks and the client components under app/.
    target: ["./lib/query", "./components", "./app/**/_components/**", "./app/sign-in/sign-in-form.tsx"],
    from: ["./lib/db", "./lib/domain", "./lib/api", "./lib/import", "./lib/seed", ...serverPackages],
    message: "Client code gets types and value lists (lib/values, lib/schemas), never server modules.",
  },
];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    files: ["**/*.{js,jsx,mjs,ts,tsx,mts,cts}"],
    rules: { "import/no-restricted-paths": ["error", { zones: layerZones }] },
  },
  {
    // Exempt: tests and test helpers set up databases and call routes across layers; lib/seed,
    // lib/security (fixtures), bench, scripts, system and e2e are tools beside the product.
    files: [
      "**/*.test.ts",
      "**/*.test.tsx",
      "lib/testing/**",
      "lib/security/**",
      "lib/seed/**",
      "bench/**",
      "scripts/**",
      "system/**",
      "e2e/**",
    ],
    rules: { "import/no-restricted-paths": "off" },
  },
  {
    ignores: [
      ".next*/**",
      "node_modules/**",
      ".data/**",
      "drizzle/**",
      "test-results/**",
      "playwright-report/**",
      "bench/results/**",
      "next-env.d.ts",
    ],
  },
];

export default config;

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findServerCode, SERVER_MARKERS } from "@/scripts/check-client-bundle";
import { hasMarker, MARKER, serverModules, withMarker } from "@/scripts/mark-server-only";

const read = (file: string) => fs.readFileSync(path.join(process.cwd(), file), "utf8");

describe("server-only marker (scripts/mark-server-only.ts)", () => {
  it("finds a server module without the marker, and accepts one with it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "server-only-"));
    try {
      fs.mkdirSync(path.join(dir, "lib/domain/things"), { recursive: true });
      fs.mkdirSync(path.join(dir, "lib/db/schema"), { recursive: true });
      fs.mkdirSync(path.join(dir, "lib/auth"), { recursive: true });
      fs.writeFileSync(path.join(dir, "lib/domain/things/list.ts"), 'import { sql } from "drizzle-orm";\n');
      fs.writeFileSync(path.join(dir, "lib/domain/things/get.ts"), `${MARKER}\nexport const x = 1;\n`);
      fs.writeFileSync(path.join(dir, "lib/domain/things/list.test.ts"), "");
      fs.writeFileSync(path.join(dir, "lib/db/schema/things.ts"), "");
      fs.writeFileSync(path.join(dir, "lib/auth/scopes.ts"), "");

      const modules = serverModules(dir);
      expect(modules).toEqual(["lib/domain/things/get.ts", "lib/domain/things/list.ts"]);
      const unmarked = modules.filter((file) => !hasMarker(fs.readFileSync(path.join(dir, file), "utf8")));
      expect(unmarked).toEqual(["lib/domain/things/list.ts"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("puts the marker first, once", () => {
    const source = '/** Doc. */\nimport { sql } from "drizzle-orm";\n';
    const marked = withMarker(source);
    expect(marked).toBe(`${MARKER}\n${source}`);
    expect(withMarker(marked)).toBe(marked);
    expect(hasMarker(`// why\n\n${MARKER}\n`)).toBe(true);
    expect(hasMarker(`import "drizzle-orm";\n${MARKER}\n`)).toBe(false);
  });

  it("is on the database client, its errors and the SQL tag rules", () => {
    for (const file of ["lib/db/client.ts", "lib/db/errors.ts", "lib/domain/normalize.ts"]) {
      expect(hasMarker(read(file)), file).toBe(true);
    }
  });
});

describe("lib/values", () => {
  it("imports nothing but itself", () => {
    const dir = path.join(process.cwd(), "lib/values");
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))) {
      const specifiers = [...read(`lib/values/${name}`).matchAll(/\bfrom\s+"([^"]+)"|\bimport\s+"([^"]+)"/g)];
      for (const [, from, bare] of specifiers) expect(from ?? bare, name).toMatch(/^\.\/[\w-]+$/);
    }
  });
});

describe("client bundle check (scripts/check-client-bundle.ts)", () => {
  it("uses markers that are in the server packages", () => {
    for (const { file, marker } of SERVER_MARKERS)
      expect(read(`node_modules/${file}`), file).toContain(marker);
  });

  it("names the chunk that carries a server package", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bundle-"));
    try {
      fs.mkdirSync(path.join(dir, "chunks"));
      fs.writeFileSync(path.join(dir, "chunks/a.js"), 'let t=Symbol.for("drizzle:Name");');
      fs.writeFileSync(path.join(dir, "chunks/b.js"), "console.log(1)");
      expect(findServerCode(dir)).toEqual([
        { chunk: path.join(dir, "chunks/a.js"), pkg: "drizzle-orm", marker: "drizzle:Name" },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

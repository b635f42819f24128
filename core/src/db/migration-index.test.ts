// What `npm run migration:create` makes of migrations/index.ts: the new migration imported and last
// in MIGRATIONS, and the file left as Prettier writes it (CI runs `npm run format:check`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { check, format, resolveConfig } from "prettier";
import { describe, expect, test } from "vitest";
import { registerMigration } from "./migration-index.ts";
import { MIGRATIONS_DIR } from "./migration-snapshot.ts";

const indexFile = join(MIGRATIONS_DIR, "index.ts");
const committed = readFileSync(indexFile, "utf8");
const formatted = async (text: string) => format(text, { ...(await resolveConfig(indexFile)), filepath: indexFile });

describe("registerMigration", () => {
  for (const [layout, source] of [
    ["the committed index", () => Promise.resolve(committed)],
    ["the index as Prettier writes it", () => formatted(committed)],
    ["a short list, which Prettier keeps on one line", () => formatted('import { A } from "./a.ts";\n\nexport const MIGRATIONS = [A];\n')],
  ] as const) {
    test(`${layout}: the new migration is imported after the others and runs last; the file is Prettier's`, async () => {
      const next = await registerMigration(await source(), indexFile, "Migration20991231000000_next", "20991231000000-next");
      const imports = next.split("\n").filter((line) => line.startsWith("import "));
      expect(imports.at(-1)).toBe('import { Migration20991231000000_next } from "./20991231000000-next.ts";');
      const list = /export const MIGRATIONS = \[([^\]]*)\];/
        .exec(next)![1]!
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean);
      expect(list.at(-1)).toBe("Migration20991231000000_next");
      expect(list.slice(0, -1)).toEqual(
        /export const MIGRATIONS = \[([^\]]*)\];/
          .exec(await source())![1]!
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean),
      );
      expect(await check(next, { ...(await resolveConfig(indexFile)), filepath: indexFile })).toBe(true);
    });
  }
});

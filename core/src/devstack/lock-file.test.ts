// `npm ci` refuses a lock file that lacks any optional package of a locked dependency, even one for
// another platform (it did for buf's darwin/win32/armv7 builds, and a fresh clone fell back to
// `npm install`, which rewrote package-lock.json and left the newcomer's clone dirty). This is the
// check npm ci makes, without the network.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { REPO_ROOT } from "./services.ts";

interface LockedPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as LockedPackage;

test("every optional dependency of a locked package is itself locked (npm ci needs them all)", () => {
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      // npm resolves a dependency next to its dependent first, then in the top-level node_modules.
      if (!lock.packages[`${path}/node_modules/${name}`] && !lock.packages[`node_modules/${name}`]) missing.push(`${name} (of ${path || "the root"})`);
    }
  }
  expect(missing).toEqual([]);
});

test("the lock file's root agrees with package.json's exact versions", () => {
  const root = lock.packages[""]!;
  expect(root.dependencies).toEqual(manifest.dependencies);
  expect(root.devDependencies).toEqual(manifest.devDependencies);
});

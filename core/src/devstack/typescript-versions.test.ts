// Two TypeScripts are installed on purpose: TypeScript 7 (`@typescript/native`) compiles and
// typechecks; the `typescript` package name is TypeScript 6, whose JavaScript API typescript-eslint
// needs (TypeScript 7.0 ships none). Both declare a `tsc` binary (TypeScript 6's through the package
// it wraps); npm links the first by path, which must stay TypeScript 7's.
import { readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { expect, test } from "vitest";
import { REPO_ROOT } from "./services.ts";

const packageJson = (dir: string) =>
  JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string; peerDependencies?: Record<string, string> };

test("the tsc of npm scripts (typecheck, build) is TypeScript 7", () => {
  const tsc = realpathSync(join(REPO_ROOT, "node_modules", ".bin", "tsc"));
  const native = join(REPO_ROOT, "node_modules", "@typescript", "native");
  expect(tsc).toBe(realpathSync(join(native, "bin", "tsc")));
  expect(packageJson(native).version).toMatch(/^7\./);
});

test("the typescript package that typescript-eslint loads is a TypeScript it supports", () => {
  const ts = createRequire(join(REPO_ROOT, "node_modules", "typescript-eslint", "package.json"))("typescript") as { version: string };
  const range = packageJson(join(REPO_ROOT, "node_modules", "typescript-eslint")).peerDependencies?.typescript;
  // The range reads ">=4.8.4 <X.Y.0"; TypeScript must be below its upper bound.
  const below = /<(\d+)\.(\d+)\.0$/.exec(range ?? "");
  expect(below, `typescript-eslint's peer range: ${range}`).not.toBeNull();
  const [major, minor] = ts.version.split(".").map(Number) as [number, number];
  const [maxMajor, maxMinor] = [Number(below![1]), Number(below![2])];
  expect(major < maxMajor || (major === maxMajor && minor < maxMinor), `typescript ${ts.version} within ${range}`).toBe(true);
});

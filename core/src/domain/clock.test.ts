// Domain operations and jobs read the time only from `deps.now()`: the one clock a test can set and
// an operation stamps with. A `new Date()` or `Date.now()` in them would decide or stamp by the wall
// clock instead (as the transition helpers' default did). Times written by SQL `now()` are another
// matter (the README says where).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const ROOTS = [new URL("./", import.meta.url), new URL("../jobs/", import.meta.url)].map((url) => fileURLToPath(url));
const WALL_CLOCK = /new Date\(\s*\)|Date\.now\(\)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => `${dir}${file}`);
}

describe("clocks", () => {
  test("domain and job code takes the time from deps.now(), never from the wall clock", () => {
    const files = ROOTS.flatMap(sources);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => {
          const code = line.replace(/\/\/.*$/, "").trimStart();
          return code.startsWith("*") || !WALL_CLOCK.test(code) ? [] : [`${file}:${i + 1}: ${line.trim()}`];
        }),
    );
    expect(found).toEqual([]);
  });
});

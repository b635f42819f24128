// The READMEs link into each other (the root is the newcomer's page; each folder keeps its depth):
// every relative link must name a file that exists and, with a #fragment, a heading of that file
// (GitHub's slugs: lowercased, punctuation dropped, spaces → hyphens, -1/-2 for repeats).
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

const ROOT = path.join(import.meta.dirname, "..");
const READMES = [
  "README.md",
  "core/README.md",
  "facade/README.md",
  "facade/dashboard/README.md",
  "dispatcher/README.md",
  "proto/README.md",
  "test/README.md",
  "test/bench/README.md",
  "test/bench/HISTORY.md",
];

/** Lines outside code fences, with code spans blanked (a link inside `code` is not a link). */
function prose(markdown: string): string[] {
  let fence = false;
  return markdown.split("\n").map((line) => {
    if (line.startsWith("```")) {
      fence = !fence;
      return "";
    }
    return fence ? "" : line.replace(/`[^`]*`/g, (span) => " ".repeat(span.length));
  });
}

function headingSlugs(file: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const line of prose(readFileSync(file, "utf8").replace(/`/g, ""))) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    let slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const repeats = seen.get(slug);
    seen.set(slug, (repeats ?? -1) + 1);
    if (repeats !== undefined) slug = `${slug}-${repeats + 1}`;
    slugs.add(slug);
  }
  return slugs;
}

test.each(READMES)("every relative link in %s reaches a file and a heading", (readme) => {
  const file = path.join(ROOT, readme);
  const broken: string[] = [];
  prose(readFileSync(file, "utf8")).forEach((line, index) => {
    for (const [, target] of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [relative, fragment] = target!.split("#");
      const resolved = relative === "" ? file : path.join(path.dirname(file), relative!);
      if (!existsSync(resolved)) broken.push(`${readme}:${index + 1}: no file ${target}`);
      else if (fragment !== undefined && (statSync(resolved).isDirectory() || !headingSlugs(resolved).has(fragment))) {
        broken.push(`${readme}:${index + 1}: no heading #${fragment} in ${relative || readme}`);
      }
    }
  });
  expect(broken).toEqual([]);
});

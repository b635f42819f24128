// A domain operation runs in the unit of work it is handed (core/README.md, Layering): forking the
// EntityManager would give it a connection and transactions of its own, outside its caller's. The
// import rules (npm run lint:deps) cannot see a call, so this reads the domain's source with swc.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync } from "@swc/core";
import { describe, expect, test } from "vitest";

const DOMAIN = fileURLToPath(new URL(".", import.meta.url));

/** Where a fork belongs: the unit of work is what a transport opens for an operation. */
const ALLOWED: Record<string, string> = {
  "unit-of-work.ts": "inTransaction / withoutTransaction open the unit of work a transport hands to an operation",
};

/**
 * Forks still to be removed, each with what replaces it. The list may only shrink: a file that
 * stops forking must leave it (the last test fails until it does).
 */
const KNOWN: Record<string, string> = {
  "ledger-verify/snapshot.ts":
    "verifyLedger's second connection sharing the first one's snapshot; goes when the operation runner (issue 15) hands an operation its connections",
};

/** Each `fork` the source names, as `line: text`: a call on a member, a computed member, or destructured. */
function forksIn(source: string): string[] {
  const module = parseSync(source, { syntax: "typescript", tsx: false });
  // swc's offsets are UTF-8 byte positions from the module's start, which may not be 0.
  const bytes = Buffer.from(source);
  const base = module.span.start - Buffer.byteLength(source.match(/^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/)![0]);
  const found: string[] = [];
  const at = (span: { start: number }) => {
    const offset = span.start - base;
    const line = bytes.subarray(0, offset).toString().split("\n").length;
    return `${line}: ${source.split("\n")[line - 1]!.trim()}`;
  };
  const named = (node: unknown): boolean => {
    const key = node as { type?: string; value?: unknown; expression?: { type?: string; value?: unknown } };
    if (key.type === "Identifier" || key.type === "StringLiteral") return key.value === "fork";
    return key.type === "Computed" && key.expression?.type === "StringLiteral" && key.expression.value === "fork";
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const n = node as { type?: string; span?: { start: number }; property?: unknown; key?: unknown };
    if (n.type === "MemberExpression" && named(n.property)) found.push(at(n.span!));
    if ((n.type === "KeyValuePatternProperty" || n.type === "AssignmentPatternProperty") && named(n.key))
      found.push(at((n.key as { span: { start: number } }).span));
    for (const value of Object.values(n)) if (typeof value === "object") walk(value);
  };
  walk(module.body);
  return found;
}

const sources = readdirSync(DOMAIN, { recursive: true, encoding: "utf8" })
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
  .sort();

describe("the domain opens no connection of its own", () => {
  test("the check finds a fork however it is written, and not in comments or strings", () => {
    const source = [
      "// café: a comment naming em.fork() before the code",
      "const a = deps.orm.em.fork();",
      'const b = em["fork"]().transactional(async () => 1);',
      "const { fork } = deps.orm.em;",
      "const c = tx?.fork();",
      'const text = "déjà vu: deps.orm.em.fork()";',
      "/* em.fork() */ const d = em.fork;",
    ].join("\n");
    expect(forksIn(source)).toEqual([
      "2: const a = deps.orm.em.fork();",
      '3: const b = em["fork"]().transactional(async () => 1);',
      "4: const { fork } = deps.orm.em;",
      "5: const c = tx?.fork();",
      "7: /* em.fork() */ const d = em.fork;",
    ]);
  });

  test("no domain module forks the EntityManager", () => {
    expect(sources.length).toBeGreaterThan(30);
    const forks = sources
      .filter((file) => !(file in ALLOWED) && !(file in KNOWN))
      .flatMap((file) => forksIn(readFileSync(join(DOMAIN, file), "utf8")).map((found) => `core/src/domain/${file}:${found}`));
    expect(forks).toEqual([]);
  });

  test("every listed exception still forks (a file that stopped forking leaves the list)", () => {
    const stale = Object.keys({ ...ALLOWED, ...KNOWN }).filter(
      (file) => !sources.includes(file) || forksIn(readFileSync(join(DOMAIN, file), "utf8")).length === 0,
    );
    expect(stale).toEqual([]);
  });
});

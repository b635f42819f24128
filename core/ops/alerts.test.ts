// The shipped Prometheus alert rules (core/ops/alerts.yml): every Paytami metric they name is one
// the core exports, every label value they match on is one it sets, and promtool accepts the file
// (CI installs Debian's prometheus package for promtool; .ci/run).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { registry } from "../src/metrics.ts";

const RULES = new URL("./alerts.yml", import.meta.url);
const text = readFileSync(RULES, "utf8");

describe("core/ops/alerts.yml", () => {
  test("names only metrics the core exports", async () => {
    const exported = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
    const named = new Set([...text.matchAll(/\b((?:paytami|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1]!.replace(/_(bucket|count|sum)$/, "")));
    expect(named.size).toBeGreaterThan(3);
    for (const name of named) expect(exported, name).toContain(name);
  });

  test("no metric of the core has a label Prometheus attaches to every scraped series (`job`, `instance`): it would be renamed exported_*, and a rule matching it would never fire", () => {
    const metrics = registry.getMetricsAsArray() as unknown as { name: string; labelNames?: string[] }[];
    const labels = metrics.flatMap((m) => (m.labelNames ?? []).map((label) => `${m.name}{${label}}`));
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.filter((l) => /\{(job|instance)\}$/.test(l))).toEqual([]);
    // Rules match the job of a series by the scrape job's name only.
    for (const m of text.matchAll(/\bjob(=~|=|!=)"([^"]+)"/g)) expect(m[2]).toMatch(/^paytami-/);
  });

  test("matches only methods the core serves", () => {
    const methods = [...text.matchAll(/method(?:=~|=)"([^"]+)"/g)].flatMap((m) => m[1]!.split("|"));
    const all = ["admin", "checkout", "delivery", "payment", "refund"]
      .map((file) => readFileSync(new URL(`../../proto/paytami/v1/${file}.proto`, import.meta.url), "utf8"))
      .join("\n");
    expect(methods.length).toBeGreaterThan(0);
    for (const method of methods) expect(all, method).toMatch(new RegExp(`rpc ${method}\\(`));
  });

  test("promtool check rules accepts it", () => {
    const which = spawnSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" });
    if (which.status !== 0) {
      // Only a developer machine may lack promtool; CI installs it (.ci/run), so there it must run.
      expect(process.env.CI, "promtool is missing in CI").not.toBe("true");
      return;
    }
    const run = spawnSync("promtool", ["check", "rules", RULES.pathname], { encoding: "utf8" });
    expect(run.stdout + run.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(run.status).toBe(0);
  });
});

// The shipped Prometheus alert rules (core/ops/alerts.yml): every Paytami metric they name is one
// the core exports, every label value they match on is one it sets, and promtool accepts the file
// (CI installs Debian's prometheus package for promtool; .ci/run).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Counter, Histogram } from "prom-client";
import { describe, expect, test } from "vitest";
import { eventually } from "../../test/support/eventually.ts";
import { freePort } from "../src/devstack/free-port.ts";
import { registry } from "../src/metrics.ts";

const RULES = new URL("./alerts.yml", import.meta.url);
const text = readFileSync(RULES, "utf8");

/**
 * Whether `command` (from Debian's prometheus package) is on the PATH. Only a developer machine may
 * lack it; CI installs the package (.ci/run), so there a missing one fails the test.
 */
function installed(command: string): boolean {
  if (spawnSync("sh", ["-c", `command -v ${command}`]).status === 0) return true;
  expect(process.env.CI, `${command} is missing in CI`).not.toBe("true");
  return false;
}

/** The label names a prom-client metric was declared with. */
const labelNamesOf = (metric: object): string[] => (metric as { labelNames?: string[] }).labelNames ?? [];

describe("core/ops/alerts.yml", () => {
  test("names only metrics the core exports", async () => {
    const exported = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
    const named = new Set([...text.matchAll(/\b((?:paytami|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1]!.replace(/_(bucket|count|sum)$/, "")));
    expect(named.size).toBeGreaterThan(3);
    for (const name of named) expect(exported, name).toContain(name);
  });

  test("no metric of the core has a label Prometheus attaches to every scraped series (`job`, `instance`): it would be renamed exported_*, and a rule matching it would never fire", () => {
    const labels = registry.getMetricsAsArray().flatMap((m) => labelNamesOf(m).map((label) => `${m.name}{${label}}`));
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
    if (!installed("promtool")) return;
    const run = spawnSync("promtool", ["check", "rules", RULES.pathname], { encoding: "utf8" });
    expect(run.stdout + run.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(run.status).toBe(0);
  });

  test("every series a rule selects is one Prometheus stores when it scrapes the core's /metrics as the job paytami-core", { timeout: 60_000 }, async () => {
    if (!installed("prometheus")) return;
    // Each selector on a core metric, with the label values it matches on (the first of an alternation).
    const selectors = [...text.matchAll(/\b(paytami_core_[a-z0-9_]+|nodejs_[a-z0-9_]+|up)(\{[^}]*\})?/g)].map((m) => ({
      selector: m[0],
      name: m[1]!,
      labels: Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)(?:=~|=)"([^"|]*)/g)].map((l) => [l[1]!, l[2]!])),
    }));
    expect(selectors.length).toBeGreaterThan(10);
    // The core's own series for them: what its traffic would have put there.
    for (const { name, labels } of selectors) {
      const metric = registry.getSingleMetric(name.replace(/_(bucket|count|sum)$/, ""));
      if (!metric || !name.startsWith("paytami_core_")) continue;
      // Only labels the metric has: a rule's `job` is the scrape job's, unless the metric had one of its own.
      const names = labelNamesOf(metric);
      const own = Object.fromEntries(Object.entries(labels).filter(([label]) => names.includes(label)));
      if ("observe" in metric) (metric as Histogram).observe(own, 0.001);
      else (metric as Counter).inc(own);
    }
    const server: Server = createServer((_, res) => {
      void registry.metrics().then((body) => res.writeHead(200, { "content-type": registry.contentType }).end(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const dir = mkdtempSync(join(tmpdir(), "paytami-prometheus-"));
    const port = await freePort();
    writeFileSync(
      join(dir, "prometheus.yml"),
      `global: { scrape_interval: 1s }\nscrape_configs:\n  - job_name: paytami-core\n    static_configs: [{ targets: ["127.0.0.1:${(server.address() as AddressInfo).port}"] }]\n`,
    );
    const prometheus = spawn(
      "prometheus",
      [`--config.file=${join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
      {
        stdio: "ignore",
      },
    );
    try {
      const series = async (match: string) => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/series?match[]=${encodeURIComponent(match)}`).catch(() => undefined);
        return res?.ok ? ((await res.json()) as { data: Record<string, string>[] }).data : [];
      };
      // Every series comes with one scrape (`up` among them); a selector no scrape can satisfy stays missing.
      await eventually(async () => ((await series('up{job="paytami-core"}')).length > 0 ? true : undefined), 30_000, "Prometheus's first scrape", 200);
      const missing: string[] = [];
      for (const { selector } of selectors) if ((await series(selector)).length === 0) missing.push(selector);
      expect(missing).toEqual([]);
    } finally {
      prometheus.kill();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// HAProxy (Debian's `haproxy`) in front of the cluster's facades: one HTTP frontend on loopback,
// filling the first facade before the second, each probed on GET /healthz, so a dead facade leaves
// the rotation within two probes and a request whose connection it refused is sent to another one.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startChild, waitForHttp, type Child } from "./processes.ts";
import { SetupError } from "./report.ts";
import { aptInstall, findExecutable } from "./system-packages.ts";

const EXTRA_DIRS = ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"];

export async function ensureHaproxy(home: string): Promise<string> {
  const found = findExecutable("haproxy", EXTRA_DIRS);
  if (found) return found;
  await aptInstall(["haproxy"], "haproxy", "install HAProxy (e.g. `sudo apt-get install haproxy`)", home);
  const installed = findExecutable("haproxy", EXTRA_DIRS);
  if (!installed) throw new SetupError("installed haproxy but still cannot find it");
  return installed;
}

/** Connections at once the first facade takes before the second gets any (`balance first`). */
const FACADE_FILL = 64;

export function haproxyConfig(port: number, backends: { name: string; port: number }[]): string {
  return [
    "# Written by `npm run cluster` on every start.",
    "global",
    "  maxconn 4096",
    // One thread: it spends ~0.05 ms of CPU per request, and on a machine whose cores the facades and
    // cores need, a second thread only adds wake-ups (core/README.md "What the cluster shape costs on one machine").
    "  nbthread 1",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  timeout http-keep-alive 10s",
    // A connection a dead facade refused goes to the other one; a request that reached a facade is
    // never sent twice (a POST without Idempotency-Key would create twice).
    "  retries 2",
    "  option redispatch",
    "  retry-on conn-failure",
    "frontend paytami",
    `  bind 127.0.0.1:${port}`,
    "  option forwardfor",
    "  default_backend facades",
    "backend facades",
    // Every facade and core of this shape shares one machine's CPUs, so a second active pair adds no
    // capacity, only cost: each Node process and each core's group commit does less per wake-up at
    // half the load. The first facade takes every connection up to FACADE_FILL at once, the second
    // the overflow, and all of it while the first is down (core/README.md "What the cluster shape
    // costs on one machine"; on several machines, balance roundrobin or leastconn instead).
    "  balance first",
    "  option httpchk GET /healthz",
    "  http-check expect status 200",
    // The last facade has no cap, so HAProxy never holds a request back in its queue while one is up.
    ...backends.map((b, i) => `  server ${b.name} 127.0.0.1:${b.port}${i < backends.length - 1 ? ` maxconn ${FACADE_FILL}` : ""} check inter 1s fall 2 rise 1`),
    "",
  ].join("\n");
}

export interface Haproxy {
  url: string;
  configFile: string;
  child: Child;
}

export async function startHaproxy(home: string, dir: string, port: number, backends: { name: string; port: number }[]): Promise<Haproxy> {
  const bin = await ensureHaproxy(home);
  const configFile = join(dir, "haproxy.cfg");
  writeFileSync(configFile, haproxyConfig(port, backends));
  // -db: stay in the foreground (no daemon), so it is our child and stops with us.
  const child = startChild("haproxy", bin, ["-f", configFile, "-db"], { output: { logFile: join(dir, "haproxy.log") } });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child, 30_000);
  return { url, configFile, child };
}

// HAProxy (Debian's `haproxy`) in front of the cluster's facades: one HTTP frontend on loopback,
// round robin over the facades, each probed on GET /healthz, so a dead facade leaves the rotation
// within two probes and a request whose connection it refused is sent to another one.
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
    "  balance roundrobin",
    // A client connection keeps going to the facade it went to last while that one is up: its
    // keep-alive connection to that facade is reused instead of alternating between two.
    "  option prefer-last-server",
    "  option httpchk GET /healthz",
    "  http-check expect status 200",
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 1s fall 2 rise 1`),
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

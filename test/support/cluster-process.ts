// `npm run cluster` as the test and the bench start it: the same entry (core/src/devstack/cluster.ts,
// with --no-build: dist/ is built already; with --log-files: each service writes its own log, as on
// a production host, so the supervisor's relaying is not measured) in a temporary $PAYTAMI_HOME with
// the load balancer on a free loopback port; its commands go through the same control file the CLI reads.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callControl } from "../../core/src/devstack/cluster-control.ts";
import type { DevJson } from "../../core/src/devstack/dev-json.ts";
import { freePort } from "../../core/src/devstack/free-port.ts";
import { startChild, type Exit } from "../../core/src/devstack/processes.ts";
import { REPO_ROOT } from "../../core/src/devstack/services.ts";
import { eventually } from "./eventually.ts";

export interface ClusterProcess {
  home: string;
  /** The load balancer (HAProxy) on loopback. */
  baseUrl: string;
  dev: DevJson;
  control<T>(command: string, arg?: string): Promise<T>;
  /** The last lines of the supervisor's output, then of each service's log. */
  logTail(lines?: number): string;
  /** One service's log (`core1`, `facade2`, …). */
  serviceLog(name: string): string;
  /** SIGTERM, as Ctrl-C; `keepHome` leaves $PAYTAMI_HOME (cluster.log and cluster/*.log) for a post-mortem. */
  stop(keepHome?: boolean): Promise<Exit>;
}

export async function startClusterProcess(env: NodeJS.ProcessEnv = {}): Promise<ClusterProcess> {
  const home = mkdtempSync(join(tmpdir(), "paytami-cluster-"));
  // The PostgreSQL user (when we are root) must traverse it.
  chmodSync(home, 0o755);
  const port = await freePort();
  const logFile = join(home, "cluster.log");
  const tailOf = (file: string, lines: number) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-lines).join("\n") : "");
  const serviceDir = join(home, "cluster");
  const serviceLogs = () => (existsSync(serviceDir) ? readdirSync(serviceDir).filter((f) => /^(core|facade|dispatcher)\d+\.log$/.test(f)) : []);
  const logTail = (lines = 40) => [tailOf(logFile, lines), ...serviceLogs().map((f) => `----- ${f} -----\n${tailOf(join(serviceDir, f), lines)}`)].join("\n");
  const child = startChild("cluster", process.execPath, [join(REPO_ROOT, "core/src/devstack/cluster.ts"), "--no-build", "--log-files"], {
    env: { ...process.env, ...env, PAYTAMI_HOME: home, PORT: String(port) },
    cwd: REPO_ROOT,
    output: { logFile },
  });
  try {
    await eventually(
      async () => {
        if (child.hasExited()) throw new Error(`npm run cluster exited:\n${logTail()}`);
        return existsSync(join(home, "cluster", "control.json")) || undefined;
      },
      150_000,
      "the cluster to come up",
      250,
    );
  } catch (error) {
    await child.stop(60_000);
    throw error;
  }
  return {
    home,
    baseUrl: `http://127.0.0.1:${port}`,
    dev: JSON.parse(readFileSync(join(home, "dev.json"), "utf8")) as DevJson,
    control: (command, arg) => callControl(home, command, arg) as Promise<never>,
    logTail,
    serviceLog: (name) => readFileSync(join(serviceDir, `${name}.log`), "utf8"),
    stop: async (keepHome = false) => {
      const exit = await child.stop(60_000);
      if (!keepHome) rmSync(home, { recursive: true, force: true });
      return exit;
    },
  };
}

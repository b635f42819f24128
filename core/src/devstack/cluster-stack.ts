// `npm run cluster`: the shape of a production deployment on this machine (DESIGN §7): three NATS
// servers clustered (JetStream, replicas 3), a PostgreSQL primary with a synchronous streaming
// standby, two cores, two dispatchers, and two facades behind HAProxy. Its operations (failover-db,
// kill-nats, stop/start of one process) are what cluster-control.ts serves to `npm run cluster -- …`.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { readDevJson } from "./dev-json.ts";
import { seedAndWriteDevJson } from "./dev-json-seed.ts";
import { freePort, preferredOrFreePort } from "./free-port.ts";
import { startHaproxy } from "./haproxy.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { startNatsCluster, type NatsCluster } from "./nats-cluster.ts";
import { startReplicatedPostgres, type ReplicatedPostgres } from "./pg-replicated.ts";
import { describeExit, startChild, waitForHttp, type Child } from "./processes.ts";
import { say, warn } from "./report.ts";
import { REPO_ROOT, serviceCommand, type ServiceName } from "./services.ts";
import { baseEnvironment, credentialsFor, stackSecrets } from "./stack-env.ts";

const CORE_READY_MS = 120_000; // the first core runs every migration
const EDGE_READY_MS = 60_000;
const INSTANCES = 2;

export interface ServiceProcess {
  name: string;
  service: ServiceName;
  /** Where its /healthz answers. */
  healthUrl: string;
  env: NodeJS.ProcessEnv;
  child?: Child | undefined;
}

export interface ProcessStatus {
  name: string;
  pid: number | null;
  state: "running" | "stopped";
  /** The status of its GET /healthz. */
  health?: string;
  /** Where that /healthz is (a core's /metrics is on the same port). */
  health_url?: string;
}

export interface ClusterStatus {
  base_url: string;
  processes: ProcessStatus[];
  postgres: Record<string, "primary" | "standby" | "down">;
  nats_stream_leader: string | null;
}

export interface Cluster {
  baseUrl: string;
  databaseUrl: string;
  natsUrl: string;
  services: ServiceProcess[];
  status(): Promise<ClusterStatus>;
  /** kill -9 of the PostgreSQL primary, then (once every core reports no primary) the standby's promotion. */
  failoverDb(): Promise<{ killed_at: string; promoted_at: string }>;
  killNats(n: number): Promise<{ node: string }>;
  restartNats(n: number): Promise<{ node: string }>;
  /** SIGKILL (`signal` "SIGKILL") or orderly stop of one service process. */
  stopService(name: string, signal: "SIGTERM" | "SIGKILL"): Promise<{ name: string; exit: string }>;
  startService(name: string): Promise<{ name: string }>;
}

export interface ClusterOptions {
  home: string;
  /** The load balancer's port; `PORT`, else 4000 when free, else any. */
  port?: number;
  /**
   * Each service writes its own `<home>/cluster/<name>.log` (as a host's process manager keeps one
   * per unit, beside haproxy.log and the NATS nodes' logs) instead of this process relaying every
   * line to its stdout with a prefix: relaying two facades' access logs cost 0.015–0.05 ms of CPU
   * per request, which is not a cost of the deployment shape (`--log-files`; the bench and tests).
   */
  logFiles?: boolean;
}

async function healthOf(url: string): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return String(response.status);
  } catch {
    return "no answer";
  }
}

export async function startCluster(life: Lifecycle, options: ClusterOptions): Promise<Cluster> {
  const { home } = options;
  const dir = join(home, "cluster");
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const previous = readDevJson(home);

  say("starting PostgreSQL primary + standby and three NATS servers");
  const [pgResult, natsResult] = await Promise.allSettled([
    startReplicatedPostgres({ root: join(dir, "postgres"), maxConnections: 200 }),
    startNatsCluster(3, { home: join(dir, "nats") }),
  ]);
  if (pgResult.status === "fulfilled") life.onCleanup("PostgreSQL", () => pgResult.value.stop());
  if (natsResult.status === "fulfilled") life.onCleanup("NATS", () => natsResult.value.stop());
  if (pgResult.status === "rejected") throw pgResult.reason;
  if (natsResult.status === "rejected") throw natsResult.reason;
  const pg: ReplicatedPostgres = pgResult.value;
  const nats: NatsCluster = natsResult.value;
  life.throwIfStopping();
  say(`PostgreSQL primary on ${pg.primaryPort}, standby on ${pg.standbyPort}; NATS on ${nats.names.map((n) => nats.port(n)).join(", ")}`);

  const port = options.port ?? (process.env.PORT ? Number(process.env.PORT) : await preferredOrFreePort(4000));
  const baseUrl = process.env.PUBLIC_BASE_URL || `http://localhost:${port}`;
  const secrets = stackSecrets(previous);
  const common: NodeJS.ProcessEnv = {
    ...baseEnvironment({ home, databaseUrl: pg.url, natsUrl: nats.url, baseUrl, secrets }),
    NATS_STREAM_REPLICAS: "3",
    // A lost primary is noticed (and its replacement found) within two seconds.
    DB_CONNECT_TIMEOUT: process.env.DB_CONNECT_TIMEOUT || "2s",
    // Two cores × 20 stay well below max_connections = 200, leaving room for the tools people point at it.
    DB_POOL_SIZE: process.env.DB_POOL_SIZE || "20",
    TRUST_PROXY: "127.0.0.1",
  };

  const services: ServiceProcess[] = [];
  for (let i = 1; i <= INSTANCES; i++) {
    const [grpc, coreHttp, facadePort, dispatcherPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const coreGrpc = `127.0.0.1:${grpc}`;
    services.push({
      name: `core${i}`,
      service: "core",
      healthUrl: `http://127.0.0.1:${coreHttp}/healthz`,
      // One core migrates; the other starts after it, on the migrated schema.
      env: { ...common, CORE_GRPC_ADDR: coreGrpc, CORE_HTTP_PORT: String(coreHttp), MIGRATE_ON_START: i === 1 ? "true" : "false" },
    });
    services.push({
      name: `dispatcher${i}`,
      service: "dispatcher",
      healthUrl: `http://127.0.0.1:${dispatcherPort}/healthz`,
      env: { ...common, CORE_GRPC_ADDR: coreGrpc, CORE_HTTP_PORT: String(coreHttp), DISPATCHER_HTTP_PORT: String(dispatcherPort) },
    });
    services.push({
      name: `facade${i}`,
      service: "facade",
      healthUrl: `http://127.0.0.1:${facadePort}/healthz`,
      env: { ...common, CORE_GRPC_ADDR: coreGrpc, CORE_HTTP_PORT: String(coreHttp), PORT: String(facadePort) },
    });
  }
  const find = (name: string) => {
    const found = services.find((s) => s.name === name);
    if (!found) throw new Error(`no process ${name} (processes: ${services.map((s) => s.name).join(", ")})`);
    return found;
  };
  const launch = (proc: ServiceProcess): Child => {
    const { command, args } = serviceCommand(proc.service);
    const output = options.logFiles ? { logFile: join(dir, `${proc.name}.log`) } : "prefix";
    const child = startChild(proc.name, command, args, { env: { ...proc.env, ...credentialsFor(proc.service, secrets) }, cwd: REPO_ROOT, output });
    proc.child = child;
    // In a cluster a process dying is something to watch, not a reason to stop the rest.
    void child.exited.then((exit) => {
      if (!life.reason && proc.child === child) say(`${proc.name} exited (${describeExit(exit)}); \`npm run cluster -- start ${proc.name}\` starts it again`);
    });
    return child;
  };
  const startAndWait = async (proc: ServiceProcess, timeoutMs: number) => {
    const child = launch(proc);
    await life.interruptible(waitForHttp(proc.healthUrl, child, timeoutMs));
  };
  // Stopped in reverse order of registration: the load balancer and facades first, the cores last.
  life.onCleanup("cores, dispatchers and facades", async () => {
    const order: ServiceName[] = ["facade", "dispatcher", "core"];
    for (const service of order) await Promise.all(services.filter((s) => s.service === service).map(async (s) => void (await s.child?.stop())));
  });

  say("starting two cores, two dispatchers, two facades");
  await startAndWait(find("core1"), CORE_READY_MS);
  await startAndWait(find("core2"), CORE_READY_MS);
  await Promise.all(services.filter((s) => s.service !== "core").map((s) => startAndWait(s, EDGE_READY_MS)));

  const facades = services.filter((s) => s.service === "facade").map((s) => ({ name: s.name, port: Number(s.env.PORT) }));
  const haproxy = await life.interruptible(startHaproxy(home, dir, port, facades));
  life.onCleanup("haproxy", async () => void (await haproxy.child.stop()));
  void haproxy.child.exited.then((exit) => life.requestStop({ kind: "failure", message: `haproxy exited unexpectedly (${describeExit(exit)})` }));

  const core1 = find("core1");
  await seedAndWriteDevJson(life, {
    heading: "Paytami cluster is running",
    home,
    previous,
    baseUrl,
    coreGrpc: core1.env.CORE_GRPC_ADDR!,
    coreHttp: `http://127.0.0.1:${core1.env.CORE_HTTP_PORT}`,
    databaseUrl: pg.url,
    natsUrl: nats.url,
    secrets,
  });
  say(`  load balancer:     ${haproxy.url} (HAProxy, config ${haproxy.configFile})`);

  const nodeName = (n: number) => {
    const name = `n${n}`;
    if (!nats.names.includes(name)) throw new Error(`no NATS server ${n} (servers: 1..${nats.names.length})`);
    return name;
  };
  return {
    baseUrl,
    databaseUrl: pg.url,
    natsUrl: nats.url,
    services,
    status: async () => {
      const processes: ProcessStatus[] = [];
      for (const s of services) {
        const running = s.child !== undefined && !s.child.hasExited();
        processes.push({
          name: s.name,
          pid: running ? (s.child!.process.pid ?? null) : null,
          state: running ? "running" : "stopped",
          health: await healthOf(s.healthUrl),
          health_url: s.healthUrl,
        });
      }
      for (const name of nats.names) {
        const child = nats.child(name);
        processes.push({ name: `nats-${name}`, pid: child?.process.pid ?? null, state: child ? "running" : "stopped" });
      }
      for (const node of pg.nodes) {
        const pid = pg.pid(node);
        processes.push({ name: `postgres-${node.name}`, pid, state: pid === null ? "stopped" : "running" });
      }
      processes.push({
        name: "haproxy",
        pid: haproxy.child.process.pid ?? null,
        state: haproxy.child.hasExited() ? "stopped" : "running",
        health: await healthOf(`${haproxy.url}/healthz`),
        health_url: `${haproxy.url}/healthz`,
      });
      return { base_url: baseUrl, processes, postgres: await pg.roles(), nats_stream_leader: (await nats.streamLeader()) ?? null };
    },
    failoverDb: async () => {
      const roles = await pg.roles();
      if (roles.primary !== "primary" || roles.standby !== "standby") throw new Error(`nothing to fail over: PostgreSQL is ${JSON.stringify(roles)}`);
      pg.killPrimary();
      const killedAt = new Date();
      say("PostgreSQL primary killed (-9); waiting for the cores to notice, then promoting the standby");
      // Promote once the cores report no primary (their /healthz 503), as an operator or Patroni would.
      const cores = services.filter((s) => s.service === "core" && s.child && !s.child.hasExited());
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !(await Promise.all(cores.map((c) => healthOf(c.healthUrl)))).every((h) => h !== "200")) await sleep(100);
      await pg.promoteStandby();
      const promotedAt = new Date();
      say("standby promoted: it is the primary now");
      return { killed_at: killedAt.toISOString(), promoted_at: promotedAt.toISOString() };
    },
    killNats: async (n) => {
      const node = nodeName(n);
      await nats.kill(node);
      say(`nats-server ${node} killed (-9)`);
      return { node };
    },
    restartNats: async (n) => {
      const node = nodeName(n);
      await nats.restart(node);
      say(`nats-server ${node} started again`);
      return { node };
    },
    stopService: async (name, signal) => {
      const proc = find(name);
      if (!proc.child || proc.child.hasExited()) return { name, exit: "not running" };
      const child = proc.child;
      if (signal === "SIGKILL") child.process.kill("SIGKILL");
      const exit = signal === "SIGKILL" ? await child.exited : await child.stop();
      return { name, exit: describeExit(exit) };
    },
    startService: async (name) => {
      const proc = find(name);
      if (proc.child && !proc.child.hasExited()) return { name };
      const child = launch(proc);
      await waitForHttp(proc.healthUrl, child, CORE_READY_MS).catch((error: unknown) => {
        warn(`${name} did not become healthy: ${String(error)}`);
        throw error;
      });
      return { name };
    },
  };
}

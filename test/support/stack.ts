// Test harness: starts a real Paytami stack (core + facade, optionally the
// dispatcher) as child processes against a freshly created PostgreSQL database
// on the server named by DATABASE_URL, and tears it down again.
//
// Every test file gets its own database and its own processes, so files can run
// in parallel without seeing each other's rows.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import pg from "pg";
import { CoreClient } from "../../proto/core-client.ts";
import { coreTlsEnv } from "../../proto/core-tls.ts";
import { currencyCodec, methodTypeCodec, modeCodec } from "../../proto/enums.ts";
import { paymentJson, type PaymentJson } from "../../proto/payment-json.ts";
import type { SimulationStepName } from "../../proto/simulation-steps.ts";
import { freePort } from "../../core/src/devstack/free-port.ts";
import { startChild, waitForHttp, type Child } from "../../core/src/devstack/processes.ts";
import { tailOf } from "../../core/src/devstack/report.ts";
import { databasePoolOptions, newDatabaseClient } from "../../core/src/db/primary.ts";
import { REPO_ROOT, serviceCommand } from "../../core/src/devstack/services.ts";
import { createCa, issue, tlsEnv, type CertificateAuthority, type Issued } from "./certificates.ts";
import { HttpClient } from "./http.ts";

export type ProcessName = "core" | "facade" | "dispatcher";

export interface StackOptions {
  /** Also start the dispatcher (needs NATS_URL). */
  dispatcher?: boolean;
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /**
   * The superuser URL of the PostgreSQL server the file's database is made on (default: DATABASE_URL).
   * It may name several hosts (a primary and its standby, DESIGN §7): the processes get it too.
   */
  databaseUrl?: string;
  /**
   * PUBLIC_BASE_URL for the facade and core. Defaults to the facade's own
   * loopback URL, so that the URLs it hands out can be followed.
   */
  publicBaseUrl?: string;
  /** EMBED_BASE_URL; defaults to the public base URL. */
  embedBaseUrl?: string;
  /** LOG_LEVEL for every process (default "info"). */
  logLevel?: string;
  /**
   * The core's gRPC over TLS with client certificates: a throw-away CA issues the core's, the
   * facade's, the dispatcher's and the harness's own (operator) certificates (CORE_TLS_*).
   */
  tls?: boolean;
  /**
   * Run every core with the sandbox card network as its LIVE processor
   * (test/support/core-with-live-card-network.mjs), so live payments can be paid by card.
   */
  liveCardNetwork?: boolean;
}

/** A TLS stack's certificate material (PEM paths): the CA, and what it issued to each process. */
export interface StackTls {
  ca: CertificateAuthority;
  issued: Record<ProcessName | "operator", Issued>;
}

export interface Merchant {
  merchantId: string;
  testApiKey: string;
  liveApiKey: string;
}

export interface ApiKey {
  id: string;
  apiKey: string;
  mode: string;
  expiresAt?: string | undefined;
}

export interface Admin {
  createMerchant(req?: { name?: string; currencies?: string[]; methods?: string[] }): Promise<Merchant>;
  createKey(merchantId: string, mode: "test" | "live", expiresAt?: string): Promise<ApiKey>;
  revokeKey(id: string): Promise<{ id: string; revoked: boolean }>;
  /** The payment after the step, as the public JSON object. */
  simulate(paymentId: string, step: SimulateStep): Promise<PaymentJson>;
}

export type SimulateStep = SimulationStepName;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** true when SIGTERM was not enough and the harness had to SIGKILL. */
  killed: boolean;
  ms: number;
}

export interface Stack {
  /** The facade's loopback URL (where requests go). */
  baseUrl: string;
  /** PUBLIC_BASE_URL given to the processes. */
  publicBaseUrl: string;
  coreGrpcAddr: string;
  coreHttpUrl: string;
  /** PAYTAMI_INTERNAL_TOKEN, the operator's credential (the core knows it; the harness's `core` client and `admin` use it). */
  internalToken: string;
  /** PAYTAMI_FACADE_TOKEN: the facade's own credential (the facade and the core know it). */
  facadeToken: string;
  /** PAYTAMI_DISPATCHER_TOKEN: the dispatcher's own credential (the dispatcher and the core know it). */
  dispatcherToken: string;
  /** With `tls`: the certificates, e.g. for a test's own clients. */
  tls?: StackTls;
  /** The HTTP URL (health, metrics) of every core: coreHttpUrl first, then those addInstance() started. */
  coreHttpUrls(): string[];
  dispatcherHttpUrl?: string;
  logDir: string;
  admin: Admin;
  /** The core's gRPC services, called with the operator's token (and, with `tls`, the operator's certificate). */
  core: CoreClient;
  http: HttpClient;
  pids(): Partial<Record<ProcessName, number>>;
  sql<T extends Record<string, unknown> = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  /** The stack's own database (every instance of it uses this one). */
  databaseUrl: string;
  /** Number of rows in `payments`. */
  paymentCount(): Promise<number>;
  /** Stop (SIGTERM, then SIGKILL) and start one process again with the same ports and env. */
  restart(which: ProcessName): Promise<{ exit: ExitInfo }>;
  stopProcess(which: ProcessName): Promise<ExitInfo>;
  startProcess(which: ProcessName): Promise<void>;
  logText(which: ProcessName): string;
  printLogTails(lines?: number): void;
  /**
   * Starts one more core + facade pair on new ports against the same database and
   * with the same configuration (PUBLIC_BASE_URL included), as a second instance
   * behind a load balancer would run (with `dispatcher`, also a dispatcher calling that core);
   * returns a client for its facade. Stopped by stop().
   * `env` is added to that pair's environment only (e.g. the bench's LINK_RATE_LIMIT=off pair).
   */
  addInstance(env?: Record<string, string>, options?: { dispatcher?: boolean }): Promise<HttpClient>;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------

const liveChildren = new Set<Child>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const c of liveChildren) {
      try {
        c.process.kill("SIGKILL");
      } catch {
        /* already gone */
      }
    }
  });
}

/** Node 24 binary: the current one if new enough, else the pinned npm `node` package. */
export function nodeBinary(): string {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 24) return process.execPath;
  const candidates = [path.join(REPO_ROOT, "node_modules/node/bin/node"), path.join(REPO_ROOT, "node_modules/.bin/node")];
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error("Node >= 24 not found (install dependencies with npm ci)");
}

/**
 * How a service is launched: like `npm run core|facade|dispatcher`, i.e. the
 * compiled JavaScript in dist/ with the services' V8 flags (see
 * core/src/devstack/services.ts; the suite's global setup builds dist/ once).
 * There is no running from source: Node's type stripping cannot run the facade's .tsx pages.
 */
export function launchCommand(name: ProcessName, options: { liveCardNetwork?: boolean } = {}): { command: string; args: string[] } {
  const cmd = serviceCommand(name);
  const entry = cmd.args[cmd.args.length - 1]!;
  if (!fs.existsSync(entry)) {
    throw new Error(`${entry} does not exist: run \`npm run build\` (the test suite's global setup does)`);
  }
  if (name === "core" && options.liveCardNetwork) {
    return { command: nodeBinary(), args: [...cmd.args.slice(0, -1), path.join(REPO_ROOT, "test", "support", "core-with-live-card-network.mjs")] };
  }
  return { command: nodeBinary(), args: cmd.args };
}

/**
 * Runs one service with exactly `env` until it exits on its own (as it must when it refuses its
 * configuration); killed after `timeoutMs` so a service that starts after all fails the test
 * instead of outliving it. Its exit code (null when killed) and its stdout and stderr together.
 */
export function runUntilExit(name: ProcessName, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  const { command, args } = launchCommand(name);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Distinct free ports (free-port.ts never hands out the same port twice in a process). */
async function freePorts(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await freePort());
  return out;
}

function requireEnv(name: string): string {
  const v = process.env[name];
  if (v === undefined || v === "") {
    throw new Error(
      `${name} is not set. Run the suite with \`npm test\` (which provisions PostgreSQL and NATS), ` +
        `or export DATABASE_URL (superuser URL) and NATS_URL yourself.`,
    );
  }
  return v;
}

/** `url` naming database `dbName` instead (by hand: a URL with several hosts is no WHATWG URL). */
function withDatabase(url: string, dbName: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^/?#]*)(?:\/[^?#]*)?/, `$1/${dbName}`);
}

/** One statement on the server as the DATABASE_URL role (which may create databases); on the primary when it names several hosts. */
async function adminStatement(adminUrl: string, statement: string): Promise<void> {
  const client = newDatabaseClient(adminUrl, 5_000);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createDatabase(adminUrl: string): Promise<{ name: string; url: string }> {
  const name = "paytami_t_" + randomBytes(6).toString("hex");
  await adminStatement(adminUrl, `CREATE DATABASE "${name}"`);
  return { name, url: withDatabase(adminUrl, name) };
}

export function dropDatabase(adminUrl: string, name: string): Promise<void> {
  return adminStatement(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

interface Proc {
  name: ProcessName;
  env: Record<string, string>;
  healthUrl: string;
  logFile: string;
  /** The core runs with the sandbox card network as its live processor. */
  liveCardNetwork?: boolean;
  child?: Child;
  /** Set while the harness itself is stopping the process. */
  stopping?: boolean;
}

// Processes are started, polled and stopped by the dev stack's own functions (core/src/devstack/processes.ts).
function spawnProc(p: Proc): Child {
  p.stopping = false;
  const { command, args } = launchCommand(p.name, { liveCardNetwork: p.liveCardNetwork ?? false });
  fs.appendFileSync(p.logFile, `\n===== ${new Date().toISOString()} starting ${p.name} =====\n===== $ ${command} ${args.join(" ")}\n`);
  const child = startChild(p.name, command, args, { env: p.env, cwd: REPO_ROOT, output: { logFile: p.logFile } });
  liveChildren.add(child);
  p.child = child;
  void child.exited.then(({ code, signal }) => {
    liveChildren.delete(child);
    if (p.stopping) return;
    // Nobody here asked it to stop: make that visible, in the log and on stderr.
    const msg = `===== ${new Date().toISOString()} ${p.name} (pid ${child.process.pid}) exited unexpectedly: code ${code}, signal ${signal} =====`;
    try {
      fs.appendFileSync(p.logFile, `\n${msg}\n`);
    } catch {
      /* log dir gone */
    }
    process.stderr.write(`[paytami harness] ${msg}\n`);
  });
  return child;
}

async function stopProc(p: Proc, graceMs = 20_000): Promise<ExitInfo> {
  const child = p.child;
  if (!child) return { code: null, signal: null, killed: false, ms: 0 };
  p.child = undefined;
  const t0 = Date.now();
  if (!child.hasExited()) p.stopping = true;
  const exit = await child.stop(graceMs);
  return { ...exit, killed: exit.signal === "SIGKILL", ms: Date.now() - t0 };
}

async function startProc(p: Proc, timeoutMs = 60_000): Promise<void> {
  const child = spawnProc(p);
  try {
    await waitForHttp(p.healthUrl, child, timeoutMs);
  } catch (error) {
    throw new Error(`${p.name}: ${(error as Error).message}. Log tail (${p.logFile}):\n${tailOf(p.logFile, 60)}`, { cause: error });
  }
}

/**
 * This process's environment without what must not leak into a service (PORT is the facade's alone;
 * credentials and certificates are each process's own), plus `extra`.
 */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k.startsWith("VITEST") || k === "NODE_OPTIONS" || k === "TEST" || k === "NODE_V8_COVERAGE" || k === "PORT") continue;
    if (/^PAYTAMI_(INTERNAL|FACADE|DISPATCHER)_TOKEN$/.test(k) || k.startsWith("CORE_TLS_")) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** A CA and the certificates it issues to each process of a TLS stack, in `dir`/tls (removed with the logs). */
function stackCertificates(dir: string): StackTls {
  const ca = createCa(path.join(dir, "tls"), "paytami-test-ca");
  return {
    ca,
    issued: {
      core: issue(ca, "core", "server"),
      facade: issue(ca, "facade", "client"),
      dispatcher: issue(ca, "dispatcher", "client"),
      operator: issue(ca, "operator", "client"),
    },
  };
}

/**
 * Starts a stack. Ports are picked free but not reserved, so another test file could
 * grab one in between; on EADDRINUSE the whole start is retried once with new ports.
 */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  try {
    return await startStackOnce(opts);
  } catch (e) {
    if (!String((e as Error).message).includes("EADDRINUSE")) throw e;
    process.stderr.write("[paytami harness] port taken during startup; retrying with new ports\n");
    return startStackOnce(opts);
  }
}

async function startStackOnce(opts: StackOptions): Promise<Stack> {
  installExitHook();
  const adminUrl = opts.databaseUrl ?? requireEnv("DATABASE_URL");
  const natsUrl = process.env.NATS_URL;
  if (opts.dispatcher && !natsUrl) requireEnv("NATS_URL");

  const db = await createDatabase(adminUrl);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-logs-"));
  const [facadePort, grpcPort, coreHttpPort, dispatcherPort] = (await freePorts(4)) as [number, number, number, number];
  const baseUrl = `http://127.0.0.1:${facadePort}`;
  const publicBaseUrl = opts.publicBaseUrl ?? baseUrl;
  const embedBaseUrl = opts.embedBaseUrl ?? publicBaseUrl;
  const coreGrpcAddr = `127.0.0.1:${grpcPort}`;
  const internalToken = randomBytes(24).toString("hex");
  const facadeToken = randomBytes(24).toString("hex");
  const dispatcherToken = randomBytes(24).toString("hex");
  const tls = opts.tls ? stackCertificates(logDir) : undefined;
  // One per stack, shared by every instance and kept across restarts, as in production.
  const embedTokenSecret = randomBytes(32).toString("base64url");

  const common: Record<string, string> = {
    DATABASE_URL: db.url,
    CORE_GRPC_ADDR: coreGrpcAddr,
    CORE_HTTP_PORT: String(coreHttpPort),
    PUBLIC_BASE_URL: publicBaseUrl,
    EMBED_BASE_URL: embedBaseUrl,
    EMBED_TOKEN_SECRET: embedTokenSecret,
    LOG_LEVEL: opts.logLevel ?? "info",
    // Test-mode webhooks to the tests' receivers on loopback, as `npm start` allows them (off in production).
    WEBHOOK_ALLOW_LOOPBACK: "true",
    // Keep background sandbox jobs from moving payments under a test's feet.
    SETTLEMENT_DELAYS: "3600s,3600s,3600s",
    BANK_TRANSFER_CONFIRM_AFTER: "3600s",
    // Every test speaks from 127.0.0.1, so per-client limits would add up across a file's unrelated
    // tests; the files that test these limits set their own (LINK_RATE_LIMIT keeps its default: its
    // suites speak from their own X-Forwarded-For addresses).
    CARD_SUBMIT_LIMIT: "1000/payment,100000/ip,60s",
    PUBLIC_ROUTE_LIMIT: "100000/ip,60s",
    ...(natsUrl ? { NATS_URL: natsUrl } : {}),
    // The suite's files share one NATS and its event stream: each stack's dispatchers share a durable
    // consumer of their own (events of other stacks are unknown to this stack's core and only acked).
    DISPATCHER_CONSUMER: `dispatcher_${db.name}`,
    // Likewise each stack's request logs: its facades publish, and its cores take, on a subject of its own.
    REQUEST_LOG_SUBJECT: `paytami.request_logs.${db.name}`,
  };
  // Each process holds its own credential and certificate; the core knows every process's token.
  const credentials: Record<ProcessName, Record<string, string>> = {
    core: {
      PAYTAMI_INTERNAL_TOKEN: internalToken,
      PAYTAMI_FACADE_TOKEN: facadeToken,
      PAYTAMI_DISPATCHER_TOKEN: dispatcherToken,
      ...(tls ? tlsEnv(tls.issued.core) : {}),
    },
    facade: { PAYTAMI_FACADE_TOKEN: facadeToken, ...(tls ? tlsEnv(tls.issued.facade) : {}) },
    dispatcher: { PAYTAMI_DISPATCHER_TOKEN: dispatcherToken, ...(tls ? tlsEnv(tls.issued.dispatcher) : {}) },
  };
  /** One process; `opts.env` wins over the harness's defaults and `extra` over both; health is checked on `healthPort`. */
  const proc = (name: ProcessName, logName: string, healthPort: number, extra: Record<string, string> = {}): Proc => ({
    name,
    env: childEnv({ ...common, ...credentials[name], ...opts.env, ...extra }),
    healthUrl: `http://127.0.0.1:${healthPort}/healthz`,
    logFile: path.join(logDir, `${logName}.log`),
    liveCardNetwork: opts.liveCardNetwork ?? false,
  });
  const procs: Record<ProcessName, Proc> = {
    core: proc("core", "core", coreHttpPort),
    facade: proc("facade", "facade", facadePort, { PORT: String(facadePort) }),
    dispatcher: proc("dispatcher", "dispatcher", dispatcherPort, { DISPATCHER_HTTP_PORT: String(dispatcherPort) }),
  };
  const enabled: ProcessName[] = ["core", "facade", ...(opts.dispatcher ? (["dispatcher"] as const) : [])];

  const pool = new pg.Pool({ ...databasePoolOptions(db.url, 5_000), max: 3 });
  pool.on("error", () => {
    /* connections die when the database is dropped */
  });
  // Admin calls go through the one core client (the operator's token, deadline, catalog errors); it connects lazily.
  const coreClient = new CoreClient({ address: coreGrpcAddr, internalToken, tls: tls && coreTlsEnv(tlsEnv(tls.issued.operator), "client"), timeoutMs: 15_000 });
  let stopped = false;

  const extraProcs: Proc[] = [];
  const addInstance = async (env: Record<string, string> = {}, options: { dispatcher?: boolean } = {}): Promise<HttpClient> => {
    const n = extraProcs.filter((x) => x.name === "core").length + 2;
    const [fPort, gPort, hPort, dPort] = (await freePorts(4)) as [number, number, number, number];
    const own = { ...env, CORE_GRPC_ADDR: `127.0.0.1:${gPort}`, CORE_HTTP_PORT: String(hPort) };
    const core = proc("core", `core-${n}`, hPort, own);
    const facade = proc("facade", `facade-${n}`, fPort, { ...own, PORT: String(fPort) });
    extraProcs.push(core, facade);
    await startProc(core);
    await startProc(facade);
    if (options.dispatcher) {
      const dispatcher = proc("dispatcher", `dispatcher-${n}`, dPort, { ...own, DISPATCHER_HTTP_PORT: String(dPort) });
      extraProcs.push(dispatcher);
      await startProc(dispatcher);
    }
    return new HttpClient(`http://127.0.0.1:${fPort}`);
  };

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    coreClient.close();
    for (const p of extraProcs.filter((x) => x.name === "dispatcher")) await stopProc(p);
    for (const p of extraProcs.filter((x) => x.name === "facade")) await stopProc(p);
    for (const p of extraProcs.filter((x) => x.name === "core")) await stopProc(p);
    // facade first, so no request reaches a core that is going away
    for (const name of ["dispatcher", "facade", "core"] as const) await stopProc(procs[name]);
    await pool.end().catch(() => undefined);
    await dropDatabase(adminUrl, db.name).catch((e) => {
      console.error(`could not drop ${db.name}: ${String(e)}`);
    });
  };

  try {
    await startProc(procs.core);
    await Promise.all(enabled.filter((n) => n !== "core").map((n) => startProc(procs[n])));
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }

  const admin: Admin = {
    createMerchant: async (req = {}) => {
      const created = await coreClient.admin.createMerchant({
        name: req.name ?? `Test Merchant ${randomBytes(3).toString("hex")}`,
        currencies: (req.currencies ?? []).map(currencyCodec.fromWire),
        methods: (req.methods ?? []).map(methodTypeCodec.fromWire),
      });
      return { merchantId: created.merchant_id, testApiKey: created.test_api_key, liveApiKey: created.live_api_key };
    },
    createKey: async (merchantId, mode, expiresAt) => {
      const key = await coreClient.admin.createApiKey({ merchant_id: merchantId, mode: modeCodec.fromWire(mode), expires_at: expiresAt });
      return { id: key.id, apiKey: key.api_key, mode: modeCodec.toWire(key.mode), expiresAt: key.expires_at };
    },
    revokeKey: (id) => coreClient.admin.revokeApiKey({ id }),
    simulate: async (paymentId, step) => {
      const res = await coreClient.admin.simulatePayment({ payment_id: paymentId, step });
      if (!res.payment) throw new Error("SimulatePayment returned no payment");
      return paymentJson(res.payment);
    },
  };

  const stack: Stack = {
    baseUrl,
    publicBaseUrl,
    coreGrpcAddr,
    coreHttpUrl: `http://127.0.0.1:${coreHttpPort}`,
    internalToken,
    facadeToken,
    dispatcherToken,
    ...(tls ? { tls } : {}),
    coreHttpUrls: () => [procs.core, ...extraProcs.filter((p) => p.name === "core")].map((p) => new URL(p.healthUrl).origin),
    ...(opts.dispatcher ? { dispatcherHttpUrl: `http://127.0.0.1:${dispatcherPort}` } : {}),
    logDir,
    admin,
    core: coreClient,
    http: new HttpClient(baseUrl),
    pids: () => {
      const out: Partial<Record<ProcessName, number>> = {};
      for (const n of enabled) {
        const pid = procs[n].child?.process.pid;
        if (pid !== undefined) out[n] = pid;
      }
      return out;
    },
    databaseUrl: db.url,
    sql: async <T extends Record<string, unknown>>(query: string, params: unknown[] = []) => {
      const r = await pool.query(query, params);
      return r.rows as T[];
    },
    paymentCount: async () => {
      const r = await pool.query<{ n: string }>("SELECT count(*)::text AS n FROM payments");
      return Number(r.rows[0]?.n);
    },
    stopProcess: (which) => stopProc(procs[which]),
    startProcess: (which) => startProc(procs[which]),
    restart: async (which) => {
      const exit = await stopProc(procs[which]);
      await startProc(procs[which]);
      return { exit };
    },
    logText: (which) => {
      try {
        return fs.readFileSync(procs[which].logFile, "utf8");
      } catch {
        return "";
      }
    },
    printLogTails: (lines = 40) => {
      for (const n of enabled) {
        console.error(`----- ${n} log tail (${procs[n].logFile}) -----\n${tailOf(procs[n].logFile, lines)}`);
      }
    },
    addInstance,
    stop,
  };
  return stack;
}

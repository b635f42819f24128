// `npm start`: a complete local Paytami (PostgreSQL, NATS, core, facade, dispatcher) under
// $PAYTAMI_HOME, in the foreground, until Ctrl-C. Run through launch.mjs, which guarantees
// node_modules and Node 24.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { CoreClient } from "../../../proto/core-client.ts";
import { paytamiHome, readDevJson, writeDevJson, DEV_JSON } from "./dev-json.ts";
import { preferredOrFreePort } from "./free-port.ts";
import { lockHome } from "./home-lock.ts";
import { provisionInfra } from "./infra.ts";
import { Interrupted, Lifecycle } from "./lifecycle.ts";
import { describeExit, startChild, waitForHttp, type Child } from "./processes.ts";
import { describeError, say, SetupError } from "./report.ts";
import { seedDashboardOwner } from "./dashboard-owner.ts";
import { seedSandboxMerchant } from "./seed.ts";
import { buildServices, REPO_ROOT, serviceCommand, type ServiceName } from "./services.ts";

const CORE_READY_MS = 120_000; // first start runs every migration
const EDGE_READY_MS = 60_000;

// Any child exiting before we stop it takes the whole stack down.
function stopWhenExits(life: Lifecycle, name: string, child: Child): void {
  void child.exited.then((exit) => life.requestStop({ kind: "failure", message: `${name} exited unexpectedly (${describeExit(exit)})` }));
}

const envPort = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

async function run(life: Lifecycle): Promise<void> {
  const home = paytamiHome();
  // 0755: when we run as root the cluster's unprivileged user must be able to traverse it.
  mkdirSync(home, { recursive: true, mode: 0o755 });
  const unlock = lockHome(home);
  life.onCleanup("lock", async () => unlock());
  const previous = readDevJson(home);

  // The services run as compiled JavaScript (see services.ts); compile before provisioning so a
  // broken build fails in two seconds, not after the databases are up.
  say("compiling services into dist/");
  try {
    buildServices();
  } catch {
    throw new SetupError("`npm run build` failed (errors above)");
  }

  const infra = await provisionInfra(home);
  life.onCleanup("PostgreSQL and NATS", () => infra.stop());
  life.throwIfStopping();
  if (infra.nats) stopWhenExits(life, "nats-server", infra.nats.child);

  // Defaults (4000/4001/50051/4002) when free, so URLs stay familiar; otherwise any free port.
  const port = envPort("PORT") ?? (await preferredOrFreePort(4000));
  const coreHttpPort = envPort("CORE_HTTP_PORT") ?? (await preferredOrFreePort(4001));
  const coreGrpc = process.env.CORE_GRPC_ADDR || `127.0.0.1:${await preferredOrFreePort(50051)}`;
  const dispatcherPort = envPort("DISPATCHER_HTTP_PORT") ?? (await preferredOrFreePort(4002));
  const baseUrl = process.env.PUBLIC_BASE_URL || `http://localhost:${port}`;
  const internalToken = process.env.PAYTAMI_INTERNAL_TOKEN || previous?.internal_token || randomBytes(32).toString("base64url");
  // The facade's and dispatcher's own credentials: nothing outside this run needs them, so they are
  // made afresh each time and kept nowhere.
  const facadeToken = process.env.PAYTAMI_FACADE_TOKEN || randomBytes(32).toString("base64url");
  const dispatcherToken = process.env.PAYTAMI_DISPATCHER_TOKEN || randomBytes(32).toString("base64url");
  // Generated once and kept: embed tokens handed out before a restart must still open the page.
  const embedTokenSecret = process.env.EMBED_TOKEN_SECRET || previous?.embed_token_secret || randomBytes(32).toString("base64url");

  // Every process but the core gets only its own credential; TLS stays off on this loopback stack.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(PAYTAMI_(INTERNAL|FACADE|DISPATCHER)_TOKEN|CORE_TLS_\w+)$/.test(name)),
  );
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    PAYTAMI_HOME: home,
    DATABASE_URL: infra.databaseUrl,
    NATS_URL: infra.natsUrl,
    CORE_GRPC_ADDR: coreGrpc,
    CORE_HTTP_PORT: String(coreHttpPort),
    PORT: String(port),
    DISPATCHER_HTTP_PORT: String(dispatcherPort),
    PUBLIC_BASE_URL: baseUrl,
    EMBED_BASE_URL: process.env.EMBED_BASE_URL || baseUrl,
    EMBED_TOKEN_SECRET: embedTokenSecret,
    // Local development: test-mode endpoints may be the developer's own server (http://localhost:…).
    // The services' default is off, so a production configuration never has it by accident.
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK || "true",
  };
  const credentials: Record<ServiceName, NodeJS.ProcessEnv> = {
    core: { PAYTAMI_INTERNAL_TOKEN: internalToken, PAYTAMI_FACADE_TOKEN: facadeToken, PAYTAMI_DISPATCHER_TOKEN: dispatcherToken },
    facade: { PAYTAMI_FACADE_TOKEN: facadeToken },
    dispatcher: { PAYTAMI_DISPATCHER_TOKEN: dispatcherToken },
  };

  const launch = (name: ServiceName): Child => {
    const { command, args } = serviceCommand(name);
    const child = startChild(name, command, args, { env: { ...env, ...credentials[name] }, cwd: REPO_ROOT, output: "prefix" });
    life.onCleanup(name, async () => void (await child.stop()));
    stopWhenExits(life, name, child);
    return child;
  };

  const core = launch("core");
  await life.interruptible(waitForHttp(`http://127.0.0.1:${coreHttpPort}/healthz`, core, CORE_READY_MS));
  // Registered in this order so that shutdown (reverse order) stops the facade first.
  const dispatcher = launch("dispatcher");
  const facade = launch("facade");
  await life.interruptible(
    Promise.all([
      waitForHttp(`http://127.0.0.1:${port}/healthz`, facade, EDGE_READY_MS),
      waitForHttp(`http://127.0.0.1:${dispatcherPort}/healthz`, dispatcher, EDGE_READY_MS),
    ]),
  );

  const connection = new CoreClient({ address: coreGrpc, internalToken, timeoutMs: 15_000 });
  const coreHttp = `http://127.0.0.1:${coreHttpPort}`;
  const seeded = life.interruptible(
    (async () => {
      const merchant = await seedSandboxMerchant(connection, previous);
      const owner = await seedDashboardOwner(connection, { coreHttp, facadeToken }, merchant.merchant_id, previous, merchant.reused);
      return { merchant, owner };
    })(),
  );
  const { merchant, owner } = await seeded.finally(() => connection.close());

  writeDevJson(home, {
    base_url: baseUrl,
    core_grpc: coreGrpc,
    core_http: coreHttp,
    merchant_id: merchant.merchant_id,
    test_api_key: merchant.test_api_key,
    live_api_key: merchant.live_api_key,
    internal_token: internalToken,
    embed_token_secret: embedTokenSecret,
    database_url: infra.databaseUrl,
    nats_url: infra.natsUrl,
    dashboard_url: `${baseUrl}/dashboard`,
    dashboard_email: owner.email,
    dashboard_password: owner.password,
  });

  say("Paytami is running");
  say(`  base URL:          ${baseUrl}`);
  say(`  sandbox merchant:  ${merchant.merchant_id}${merchant.reused ? " (kept from the last run)" : ""}`);
  say(`  sandbox test key:  ${merchant.test_api_key}`);
  say(`  dashboard:         ${baseUrl}/dashboard`);
  say(`  dashboard sign-in: ${owner.email} / ${owner.password}${owner.reused ? " (kept from the last run)" : ""}`);
  say(`  details:           ${join(home, DEV_JSON)}`);
  say("Press Ctrl-C to stop.");
  await life.stopped;
}

async function main(): Promise<number> {
  const life = new Lifecycle();
  process.on("uncaughtException", (error) => life.requestStop({ kind: "failure", message: describeError(error) }));
  try {
    await run(life);
  } catch (error) {
    if (!(error instanceof Interrupted)) life.requestStop({ kind: "failure", message: describeError(error) });
  }
  const reason = life.reason!;
  if (reason.kind === "failure") say(`${reason.message}; stopping`);
  else say(`${reason.signal} received, stopping`);
  await life.cleanup();
  say("stopped");
  return reason.kind === "failure" ? 1 : 0;
}

process.exit(await main());

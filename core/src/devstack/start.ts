// `npm start`: a complete local Paytami (PostgreSQL, NATS, core, facade, dispatcher) under
// $PAYTAMI_HOME, in the foreground, until Ctrl-C. Run through launch.mjs, which guarantees
// node_modules and Node 24.
import { mkdirSync } from "node:fs";
import { paytamiHome, readDevJson } from "./dev-json.ts";
import { seedAndWriteDevJson } from "./dev-json-seed.ts";
import { preferredOrFreePort } from "./free-port.ts";
import { lockHome } from "./home-lock.ts";
import { provisionInfra } from "./infra.ts";
import { runUntilStopped, type Lifecycle } from "./lifecycle.ts";
import { describeExit, startChild, waitForHttp, type Child } from "./processes.ts";
import { say, SetupError } from "./report.ts";
import { baseEnvironment, credentialsFor, stackSecrets } from "./stack-env.ts";
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
  const secrets = stackSecrets(previous);
  const env: NodeJS.ProcessEnv = {
    ...baseEnvironment({ home, databaseUrl: infra.databaseUrl, natsUrl: infra.natsUrl, baseUrl, secrets }),
    CORE_GRPC_ADDR: coreGrpc,
    CORE_HTTP_PORT: String(coreHttpPort),
    PORT: String(port),
    DISPATCHER_HTTP_PORT: String(dispatcherPort),
  };

  const launch = (name: ServiceName): Child => {
    const { command, args } = serviceCommand(name);
    const child = startChild(name, command, args, { env: { ...env, ...credentialsFor(name, secrets) }, cwd: REPO_ROOT, output: "prefix" });
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

  await seedAndWriteDevJson(life, {
    heading: "Paytami is running",
    home,
    previous,
    baseUrl,
    coreGrpc,
    coreHttp: `http://127.0.0.1:${coreHttpPort}`,
    databaseUrl: infra.databaseUrl,
    natsUrl: infra.natsUrl,
    secrets,
  });
  say("Press Ctrl-C to stop.");
  await life.stopped;
}

process.exit(await runUntilStopped(run));

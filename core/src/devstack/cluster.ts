// `npm run cluster`: the production shape on this machine (cluster-stack.ts) in the foreground until
// Ctrl-C; `npm run cluster -- <command>` in another terminal acts on it (cluster-control.ts). Run
// through launch.mjs, which guarantees node_modules and Node 24.
import { mkdirSync } from "node:fs";
import { callControl, CONTROL_COMMANDS, serveControl } from "./cluster-control.ts";
import type { ClusterStatus } from "./cluster-stack.ts";
import { startCluster } from "./cluster-stack.ts";
import { paytamiHome } from "./dev-json.ts";
import { lockHome } from "./home-lock.ts";
import { runUntilStopped, type Lifecycle } from "./lifecycle.ts";
import { say, SetupError } from "./report.ts";
import { buildServices } from "./services.ts";

const USAGE = `usage: npm run cluster [-- --no-build] [--log-files]
       npm run cluster -- status | failover-db | kill-nats N | restart-nats N | stop NAME | kill NAME | start NAME`;

async function up(life: Lifecycle, build: boolean, logFiles: boolean): Promise<void> {
  const home = paytamiHome();
  mkdirSync(home, { recursive: true, mode: 0o755 });
  const unlock = lockHome(home);
  life.onCleanup("lock", async () => unlock());
  if (build) {
    say("compiling services into dist/");
    try {
      buildServices();
    } catch {
      throw new SetupError("`npm run build` failed (errors above)");
    }
  }
  if (logFiles) say(`service logs go to ${home}/cluster/<name>.log (core1.log, facade1.log, …), not here`);
  const cluster = await startCluster(life, { home, logFiles });
  const close = await serveControl(home, cluster);
  life.onCleanup("control port", close);
  say("In another terminal: npm run cluster -- status | failover-db | kill-nats N | restart-nats N | stop NAME | kill NAME | start NAME");
  say("Press Ctrl-C to stop.");
  await life.stopped;
}

function printStatus(status: ClusterStatus): void {
  console.log(`load balancer: ${status.base_url}`);
  console.log(
    `PostgreSQL:    ${Object.entries(status.postgres)
      .map(([node, role]) => `${node} node is ${role}`)
      .join(", ")}`,
  );
  console.log(`NATS stream:   leader ${status.nats_stream_leader ?? "(none answers)"}`);
  for (const p of status.processes) {
    console.log(
      `  ${p.name.padEnd(18)} ${p.state.padEnd(8)} pid ${String(p.pid ?? "-").padEnd(8)}${p.health ? ` ${p.health_url ?? "/healthz"} ${p.health}` : ""}`,
    );
  }
}

async function command(name: string, arg: string | undefined): Promise<number> {
  if (!CONTROL_COMMANDS.includes(name) || (name !== "status" && name !== "failover-db" && !arg)) {
    console.error(USAGE);
    return 2;
  }
  try {
    const result = await callControl(paytamiHome(), name, arg);
    if (name === "status") printStatus(result as ClusterStatus);
    else console.log(JSON.stringify(result));
    return 0;
  } catch (error) {
    console.error(`cluster ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

const args = process.argv.slice(2);
const subcommand = args.find((a) => !a.startsWith("--"));
if (subcommand && subcommand !== "up") process.exit(await command(subcommand, args[args.indexOf(subcommand) + 1]));
process.exit(await runUntilStopped((life) => up(life, !args.includes("--no-build"), args.includes("--log-files"))));

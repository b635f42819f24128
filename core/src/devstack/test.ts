// `npm test`: a throw-away PostgreSQL + NATS, then `vitest run` with any extra arguments
// (`npm test -- test/foo.test.ts`), then teardown, exiting with vitest's code. The test harness
// starts its own core/facade processes; it gets DATABASE_URL (role may CREATE DATABASE), NATS_URL
// and PAYTAMI_TEST_HOME (a scratch directory removed afterwards).
import { chmodSync, lstatSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { provisionInfra } from "./infra.ts";
import { Interrupted, Lifecycle } from "./lifecycle.ts";
import { startChild } from "./processes.ts";
import { describeError, warn } from "./report.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGKILL: 137, SIGTERM: 143 };

// The cluster directory may have been relocated out of the home (see run-as.ts); remove both.
function removeHome(home: string): void {
  const pgDir = join(home, "postgres");
  try {
    if (lstatSync(pgDir).isSymbolicLink()) rmSync(realpathSync(pgDir), { recursive: true, force: true });
  } catch {
    // nothing there
  }
  rmSync(home, { recursive: true, force: true });
}

async function main(): Promise<number> {
  const life = new Lifecycle();
  const home = mkdtempSync(join(tmpdir(), "paytami-test-"));
  // mkdtemp makes it 0700; the cluster's unprivileged user (when we are root) must traverse it.
  chmodSync(home, 0o755);
  life.onCleanup("test home", async () => removeHome(home));

  let code = 1;
  try {
    const infra = await provisionInfra(home);
    life.onCleanup("PostgreSQL and NATS", () => infra.stop());
    life.throwIfStopping();

    const nodeDir = dirname(process.execPath);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: infra.databaseUrl,
      NATS_URL: infra.natsUrl,
      PAYTAMI_TEST_HOME: home,
      // Anything the tests spawn as `node` must be Node 24, as in npm scripts.
      PATH: [join(ROOT, "node_modules", ".bin"), nodeDir, process.env.PATH ?? ""].join(delimiter),
    };
    const vitest = startChild("vitest", process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", ...process.argv.slice(2)], {
      env,
      cwd: ROOT,
      output: "inherit",
    });
    // vitest runs in its own process group, so it hears about Ctrl-C only from us, once.
    void life.stopped.then((reason) => {
      if (reason.kind === "signal") vitest.process.kill(reason.signal);
    });
    const exit = await vitest.exited;
    code = exit.code ?? (exit.signal ? (SIGNAL_EXIT[exit.signal] ?? 1) : 1);
  } catch (error) {
    if (!(error instanceof Interrupted)) warn(describeError(error));
    code = life.reason?.kind === "signal" ? (SIGNAL_EXIT[life.reason.signal] ?? 1) : 1;
  }
  await life.cleanup();
  return code;
}

process.exit(await main());

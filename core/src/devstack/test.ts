// `npm test`: a throw-away PostgreSQL + NATS, then `vitest run` with any extra arguments
// (`npm test -- test/foo.test.ts`), then teardown, exiting with vitest's code. The test harness
// starts its own core/facade processes; it gets DATABASE_URL (role may CREATE DATABASE), NATS_URL
// and PAYTAMI_TEST_HOME (a scratch directory removed afterwards). Run through launch.mjs.
import { chmodSync, lstatSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { provisionInfra } from "./infra.ts";
import { Interrupted, Lifecycle } from "./lifecycle.ts";
import { startChild } from "./processes.ts";
import { describeError, warn } from "./report.ts";
import { REPO_ROOT } from "./services.ts";

// The shell's convention for "killed by a signal".
const signalExitCode = (signal: NodeJS.Signals) => 128 + constants.signals[signal];

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

  let code: number;
  try {
    const infra = await provisionInfra(home);
    life.onCleanup("PostgreSQL and NATS", () => infra.stop());
    life.throwIfStopping();

    // PATH already starts with node_modules/.bin (launch.mjs), so `node` is the pinned Node 24.
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: infra.databaseUrl, NATS_URL: infra.natsUrl, PAYTAMI_TEST_HOME: home };
    const vitest = startChild("vitest", process.execPath, [join(REPO_ROOT, "node_modules/vitest/vitest.mjs"), "run", ...process.argv.slice(2)], {
      env,
      cwd: REPO_ROOT,
      output: "inherit",
    });
    // vitest runs in its own process group, so it hears about Ctrl-C only from us, once.
    void life.stopped.then((reason) => {
      if (reason.kind === "signal") vitest.process.kill(reason.signal);
    });
    const exit = await vitest.exited;
    code = exit.code ?? (exit.signal ? signalExitCode(exit.signal) : 1);
  } catch (error) {
    if (!(error instanceof Interrupted)) warn(describeError(error));
    code = life.reason?.kind === "signal" ? signalExitCode(life.reason.signal) : 1;
  }
  await life.cleanup();
  return code;
}

process.exit(await main());

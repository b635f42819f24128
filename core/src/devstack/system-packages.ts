// Locating server binaries and installing them with the system package manager. Installing is
// only attempted as root (a dev container or CI box); anyone else gets a one-line instruction.
import { accessSync, constants, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { runCommand } from "./processes.ts";
import { displayPath, say, SetupError, showTail } from "./report.ts";

export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// First `name` on PATH, then in `extraDirs`.
export function findExecutable(name: string, extraDirs: string[] = []): string | null {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...extraDirs];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function aptListsPresent(): boolean {
  try {
    return readdirSync("/var/lib/apt/lists").some((file) => file.endsWith("_Packages") || file.endsWith("_Packages.lz4"));
  } catch {
    return false;
  }
}

export const INSTALL_LOG = "install.log";

// PostgreSQL and NATS are provisioned in parallel and apt-get holds the dpkg lock: whatever is asked
// for in the same turn of the event loop is installed by one apt-get run, and a later request
// waits for the run before it.
interface AptBatch {
  packages: string[];
  whats: string[];
  done: Promise<void>;
}
let batch: AptBatch | undefined;
let previousRun: Promise<unknown> = Promise.resolve();

// Installs Debian packages, quietly: one line saying what, apt's output in $PAYTAMI_HOME/install.log,
// its tail only on failure.
export async function aptInstall(packages: string[], what: string, hint: string, home: string): Promise<void> {
  const aptGet = findExecutable("apt-get");
  if (!isRoot() || !aptGet) {
    throw new SetupError(`${what} not found: ${hint}`);
  }
  if (!batch) {
    const current: AptBatch = { packages: [], whats: [], done: Promise.resolve() };
    current.done = previousRun
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        batch = undefined;
        return runAptGet(aptGet, current.packages, current.whats, join(home, INSTALL_LOG));
      });
    previousRun = current.done.catch(() => undefined);
    batch = current;
  }
  batch.packages.push(...packages);
  batch.whats.push(what);
  try {
    await batch.done;
  } catch (error) {
    throw new SetupError(`${(error as Error).message}; ${hint}`);
  }
}

// Runs `apt-get update` first when the package lists are missing (fresh images ship without them),
// and once more after a failed install in case the lists are stale.
async function runAptGet(aptGet: string, packages: string[], whats: string[], log: string): Promise<void> {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const names = packages.join(", ");
  say(`${whats.join(" and ")} not found; installing ${names} with apt-get (log: ${displayPath(log)})…`);
  const started = Date.now();
  const run = (args: string[]) => runCommand(aptGet, args, { env, logFile: log });
  const failed = (step: string, code: number) => {
    showTail("apt-get", log);
    return new SetupError(`${step} failed (exit ${code}; last lines above, full log: ${displayPath(log)})`);
  };
  const update = async () => {
    const result = await run(["update"]);
    if (result.code !== 0) throw failed("apt-get update", result.code);
  };
  if (!aptListsPresent()) await update();
  const install = () => run(["install", "-y", "--no-install-recommends", ...packages]);
  let result = await install();
  if (result.code !== 0) {
    await update();
    result = await install();
  }
  if (result.code !== 0) throw failed(`apt-get install ${packages.join(" ")}`, result.code);
  say(`installed ${names} (${Math.round((Date.now() - started) / 1000)} s)`);
}

// Locating server binaries and installing them with the system package manager. Installing is
// only attempted as root (a dev container or CI box); anyone else gets a one-line instruction.
import { accessSync, constants, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { runCommand } from "./processes.ts";
import { say, SetupError } from "./report.ts";

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

// Installs Debian packages. Runs `apt-get update` first when the package lists are missing (fresh
// images ship without them), and once more after a failed install in case the lists are stale.
export async function aptInstall(packages: string[], what: string, hint: string): Promise<void> {
  const aptGet = findExecutable("apt-get");
  if (!isRoot() || !aptGet) {
    throw new SetupError(`${what} not found: ${hint}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  say(`${what} not found; installing ${packages.join(" ")} with apt-get`);
  const update = async () => {
    const result = await runCommand(aptGet, ["update"], { env, inherit: true });
    if (result.code !== 0) throw new SetupError(`apt-get update failed (exit ${result.code}); ${hint}`);
  };
  if (!aptListsPresent()) await update();
  const install = () => runCommand(aptGet, ["install", "-y", "--no-install-recommends", ...packages], { env, inherit: true });
  let result = await install();
  if (result.code !== 0) {
    await update();
    result = await install();
  }
  if (result.code !== 0) throw new SetupError(`apt-get install ${packages.join(" ")} failed (exit ${result.code}); ${hint}`);
}

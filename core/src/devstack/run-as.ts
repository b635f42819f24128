// PostgreSQL refuses to run as root, so when the dev stack runs as root (containers, CI) the
// cluster runs as an unprivileged system user. This module picks that user and makes sure it can
// reach its directory.
import { createHash } from "node:crypto";
import { chownSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmdirSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { runCommand } from "./processes.ts";
import { say, SetupError } from "./report.ts";
import { isRoot } from "./system-packages.ts";

export interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

function lookupUser(name: string): RunAs | null {
  let passwd: string;
  try {
    passwd = readFileSync("/etc/passwd", "utf8");
  } catch {
    return null;
  }
  for (const line of passwd.split("\n")) {
    const [user, , uid, gid] = line.split(":");
    if (user === name && uid !== undefined && gid !== undefined) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

// undefined = run as ourselves. As root: keep the owner of an existing data directory, else the
// `postgres` system user that the Debian package creates, else `nobody`.
export function chooseRunAs(existingDataDir: string): RunAs | undefined {
  if (!isRoot()) return undefined;
  try {
    const owner = statSync(existingDataDir);
    if (owner.uid !== 0) return { name: String(owner.uid), uid: owner.uid, gid: owner.gid };
  } catch {
    // no cluster yet
  }
  const user = lookupUser("postgres") ?? lookupUser("nobody");
  if (!user) throw new SetupError("running as root but found neither a `postgres` nor a `nobody` user to run PostgreSQL as");
  return user;
}

async function canUse(dir: string, runAs: RunAs): Promise<boolean> {
  const probe = await runCommand("/bin/sh", ["-c", 'test -d "$1" && test -w "$1" && test -x "$1"', "sh", dir], {
    uid: runAs.uid,
    gid: runAs.gid,
    cwd: "/",
  });
  return probe.code === 0;
}

// Returns the real directory for `wanted` (e.g. $PAYTAMI_HOME/postgres), owned by `runAs`. When
// `runAs` cannot traverse the path to it (a checkout under /root is mode 0700), the directory is
// placed under /var/tmp instead and `wanted` becomes a symlink to it, so the layout stays the same.
export async function ownedDirectory(wanted: string, runAs: RunAs | undefined): Promise<string> {
  try {
    if (lstatSync(wanted).isSymbolicLink()) {
      const target = realpathSync(wanted);
      if (runAs) chownSync(target, runAs.uid, runAs.gid);
      return target;
    }
  } catch {
    // does not exist yet
  }
  mkdirSync(wanted, { recursive: true, mode: 0o700 });
  if (!runAs) return wanted;
  chownSync(wanted, runAs.uid, runAs.gid);
  if (await canUse(wanted, runAs)) return wanted;

  if (readdirSync(wanted).length > 0) {
    throw new SetupError(`user ${runAs.name} cannot access ${wanted}; make its parent directories traversable (chmod o+x)`);
  }
  rmdirSync(wanted);
  const digest = createHash("sha256").update(wanted).digest("hex").slice(0, 12);
  const relocated = join("/var/tmp", `paytami-${digest}`);
  mkdirSync(relocated, { recursive: true, mode: 0o700 });
  chownSync(relocated, runAs.uid, runAs.gid);
  if (!(await canUse(relocated, runAs))) throw new SetupError(`user ${runAs.name} cannot use ${relocated}`);
  symlinkSync(relocated, wanted);
  say(`${wanted} is not reachable by user ${runAs.name}; keeping it in ${relocated} (symlinked)`);
  return relocated;
}

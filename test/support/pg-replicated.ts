// A PostgreSQL primary with a streaming standby on loopback (DESIGN §7), for failover tests: the
// standby is made with pg_basebackup -R; commits wait for it (synchronous_standby_names on the
// primary only), so a commit a client saw acknowledged survives the primary's death. Run as the
// unprivileged user the dev stack uses when we are root.
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../core/src/devstack/free-port.ts";
import { findPostgresBinDir } from "../../core/src/devstack/postgres.ts";
import { runCommand } from "../../core/src/devstack/processes.ts";
import { chooseRunAs } from "../../core/src/devstack/run-as.ts";
import { tailOf } from "../../core/src/devstack/report.ts";

const ROLE = "paytami";

export interface ReplicatedPostgres {
  primaryPort: number;
  standbyPort: number;
  /** Superuser URL naming both hosts, primary first, asking for the writable one. */
  url: string;
  /** kill -9 of the primary's postmaster (its backends exit with it). */
  killPrimary(): void;
  /** pg_ctl promote -w on the standby: returns once it accepts writes. */
  promoteStandby(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bindir = findPostgresBinDir();
  if (!bindir) throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found");
  const root = mkdtempSync(join(tmpdir(), "pgf-"));
  const runAs = chooseRunAs(join(root, "none"));
  if (runAs) chownSync(root, runAs.uid, runAs.gid);
  const asOwner = { uid: runAs?.uid, gid: runAs?.gid, cwd: root, env: { ...process.env, HOME: root, PGCONNECT_TIMEOUT: "5" } };
  const run = async (tool: string, args: string[]) => {
    const r = await runCommand(join(bindir, tool), args, asOwner);
    if (r.code !== 0) throw new Error(`${tool} ${args.join(" ")} failed (${r.code}): ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primary = join(root, "primary");
  const standby = join(root, "standby");
  const sockets = join(root, "s");
  mkdirSync(sockets);
  if (runAs) chownSync(sockets, runAs.uid, runAs.gid);
  const options = (port: number, extra = "") => `-c listen_addresses=127.0.0.1 -c port=${port} -k ${sockets} -c max_connections=100 ${extra}`;
  const start = (dir: string, port: number, extra = "") =>
    run("pg_ctl", ["-D", dir, "-l", `${dir}.log`, "-w", "-t", "60", "-s", "-o", options(port, extra), "start"]);
  const psql = (port: number, sql: string) =>
    run("psql", ["-X", "-q", "-t", "-A", "-h", "127.0.0.1", "-p", String(port), "-U", ROLE, "-d", "postgres", "-c", sql]);

  const stop = async () => {
    for (const dir of [standby, primary]) {
      await runCommand(join(bindir, "pg_ctl"), ["-D", dir, "-m", "immediate", "-w", "-s", "stop"], asOwner);
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await replicate();
  } catch (error) {
    // Nothing left running when the pair could not be made (the caller gets no handle to stop it).
    await stop();
    throw error;
  }
  async function replicate() {
    // initdb's pg_hba.conf trusts loopback replication connections already.
    await run("initdb", ["-D", primary, "-U", ROLE, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    await start(primary, primaryPort);
    await run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", ROLE, "-D", standby, "-R", "-X", "stream", "--no-sync"]);
    await start(standby, standbyPort);
    // Synchronous from now on (not in the standby's copy of the configuration: once promoted it has no standby to wait for).
    await psql(primaryPort, "ALTER SYSTEM SET synchronous_standby_names = '*'");
    await psql(primaryPort, "SELECT pg_reload_conf()");
    for (let i = 0; ; i++) {
      const state = (await psql(primaryPort, "SELECT sync_state FROM pg_stat_replication")).trim();
      if (state === "sync") break;
      if (i > 100) throw new Error(`standby never became synchronous (${state}):\n${tailOf(`${standby}.log`, 20)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    primaryPort,
    standbyPort,
    url: `postgres://${ROLE}@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/postgres?target_session_attrs=read-write`,
    killPrimary: () => {
      const pid = Number(readFileSync(join(primary, "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(pid, "SIGKILL");
    },
    promoteStandby: async () => {
      await run("pg_ctl", ["-D", standby, "-w", "-t", "60", "-s", "promote"]);
    },
    stop,
  };
}

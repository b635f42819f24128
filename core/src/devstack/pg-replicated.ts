// A PostgreSQL primary with a streaming standby on loopback (DESIGN §7), for `npm run cluster` and
// the failover tests: the standby is made with pg_basebackup -R; commits wait for it
// (synchronous_standby_names on the primary only), so a commit a client saw acknowledged survives
// the primary's death. Run as the unprivileged user the dev stack uses when we are root.
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";
import { findPostgresBinDir } from "./postgres.ts";
import { runCommand } from "./processes.ts";
import { tailOf } from "./report.ts";
import { chooseRunAs } from "./run-as.ts";

const ROLE = "paytami";

export interface PgNode {
  name: "primary" | "standby";
  port: number;
  dataDir: string;
}

export interface ReplicatedPostgres {
  primaryPort: number;
  standbyPort: number;
  nodes: PgNode[];
  /** Superuser URL naming both hosts, primary first, asking for the writable one. */
  url: string;
  /** The postmaster's pid of a node, or null when it is not running. */
  pid(node: PgNode): number | null;
  /** "primary", "standby" (in recovery) or "down" for each node, asked of the server itself. */
  roles(): Promise<Record<string, "primary" | "standby" | "down">>;
  /** kill -9 of the primary's postmaster (its backends exit with it). */
  killPrimary(): void;
  /** pg_ctl promote -w on the standby: returns once it accepts writes. */
  promoteStandby(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `root`: the directory holding both data directories (emptied first); a fresh temporary one when
 * absent (removed by stop()).
 */
export async function startReplicatedPostgres(options: { root?: string; maxConnections?: number } = {}): Promise<ReplicatedPostgres> {
  const bindir = findPostgresBinDir();
  if (!bindir) throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found");
  let root: string;
  if (options.root) {
    rmSync(options.root, { recursive: true, force: true });
    mkdirSync(options.root, { recursive: true, mode: 0o700 });
    root = options.root;
  } else root = mkdtempSync(join(tmpdir(), "pgf-"));
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
  const nodes: PgNode[] = [
    { name: "primary", port: primaryPort, dataDir: primary },
    { name: "standby", port: standbyPort, dataDir: standby },
  ];
  const sockets = join(root, "s");
  mkdirSync(sockets);
  if (runAs) chownSync(sockets, runAs.uid, runAs.gid);
  const maxConnections = options.maxConnections ?? 100;
  const settings = (port: number) => `-c listen_addresses=127.0.0.1 -c port=${port} -k ${sockets} -c max_connections=${maxConnections}`;
  const start = (dir: string, port: number) => run("pg_ctl", ["-D", dir, "-l", `${dir}.log`, "-w", "-t", "60", "-s", "-o", settings(port), "start"]);
  const psql = (port: number, sql: string) =>
    run("psql", ["-X", "-q", "-t", "-A", "-h", "127.0.0.1", "-p", String(port), "-U", ROLE, "-d", "postgres", "-c", sql]);

  const stop = async () => {
    for (const dir of [standby, primary]) {
      await runCommand(join(bindir, "pg_ctl"), ["-D", dir, "-m", "immediate", "-w", "-t", "30", "-s", "stop"], asOwner);
    }
    if (!options.root) rmSync(root, { recursive: true, force: true });
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
    // A commit is acknowledged once the standby has flushed it to its disk (remote flush), so it
    // survives the primary's death and the standby's crash alike; remote_write and remote_apply
    // measured no faster here (core/README.md "What the cluster shape costs on one machine").
    await psql(primaryPort, "ALTER SYSTEM SET synchronous_commit = 'on'");
    await psql(primaryPort, "SELECT pg_reload_conf()");
    for (let i = 0; ; i++) {
      const state = (await psql(primaryPort, "SELECT sync_state FROM pg_stat_replication")).trim();
      if (state === "sync") break;
      if (i > 100) throw new Error(`standby never became synchronous (${state}):\n${tailOf(`${standby}.log`, 20)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const pid = (node: PgNode): number | null => {
    try {
      const value = Number(readFileSync(join(node.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(value, 0);
      return value;
    } catch {
      return null;
    }
  };
  return {
    primaryPort,
    standbyPort,
    nodes,
    url: `postgres://${ROLE}@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/postgres?target_session_attrs=read-write`,
    pid,
    roles: async () => {
      const entries = await Promise.all(
        nodes.map(async (node) => {
          const r = await runCommand(
            join(bindir, "psql"),
            ["-X", "-q", "-t", "-A", "-h", "127.0.0.1", "-p", String(node.port), "-U", ROLE, "-d", "postgres", "-c", "SELECT pg_is_in_recovery()"],
            { env: { ...process.env, PGCONNECT_TIMEOUT: "2" } },
          );
          const role = r.code !== 0 ? "down" : r.stdout.trim() === "t" ? "standby" : "primary";
          return [node.name, role] as const;
        }),
      );
      return Object.fromEntries(entries);
    },
    killPrimary: () => {
      const value = pid(nodes[0]!);
      if (value !== null) process.kill(value, "SIGKILL");
    },
    promoteStandby: async () => {
      await run("pg_ctl", ["-D", standby, "-w", "-t", "60", "-s", "promote"]);
    },
    stop,
  };
}

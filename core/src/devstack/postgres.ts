// A private PostgreSQL cluster under $PAYTAMI_HOME/postgres for development and tests: loopback
// only, trust auth (nothing but local processes can connect), durability settings left at their
// defaults because this is a payment service and dev data should behave like production data.
import { appendFileSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { savedOrFreePort } from "./free-port.ts";
import { runCommand, type CommandResult } from "./processes.ts";
import { say, SetupError, tailOf, warn } from "./report.ts";
import { chooseRunAs, ownedDirectory, type RunAs } from "./run-as.ts";
import { aptInstall, findExecutable, isExecutable } from "./system-packages.ts";

// The cluster's bootstrap superuser. Superuser because the test harness creates a database per
// test run on this server.
const ROLE = "paytami";
const DATABASE = "paytami";
const MIN_MAJOR = 15;
const TOOLS = ["initdb", "pg_ctl", "postgres", "psql"];

export interface PostgresHandle {
  url: string;
  stop(): Promise<void>;
}

function candidateBinDirs(): string[] {
  const dirs: string[] = [];
  const onPath = findExecutable("initdb");
  // Follow symlinks (/usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb) to find psql too.
  if (onPath) dirs.push(dirname(realpathSync(onPath)));
  try {
    const versions = readdirSync("/usr/lib/postgresql")
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) dirs.push(`/usr/lib/postgresql/${version}/bin`);
  } catch {
    // not a Debian layout
  }
  return dirs;
}

export function findPostgresBinDir(): string | null {
  for (const dir of candidateBinDirs()) {
    if (TOOLS.every((tool) => isExecutable(join(dir, tool)))) return dir;
  }
  return null;
}

async function ensurePostgresBinDir(home: string): Promise<string> {
  const found = findPostgresBinDir();
  if (found) return found;
  await aptInstall(
    ["postgresql"],
    "PostgreSQL server binaries (initdb, pg_ctl)",
    `install PostgreSQL >= ${MIN_MAJOR} (e.g. \`sudo apt-get install postgresql\`) or set DATABASE_URL`,
    home,
  );
  const installed = findPostgresBinDir();
  if (!installed) throw new SetupError("installed postgresql but still cannot find initdb/pg_ctl/psql");
  return installed;
}

async function serverMajor(bindir: string): Promise<number> {
  const result = await runCommand(join(bindir, "postgres"), ["--version"]);
  const match = /(\d+)(?:\.\d+)?/.exec(result.stdout);
  if (!match?.[1]) throw new SetupError(`cannot tell the version of ${join(bindir, "postgres")}: ${result.stdout}${result.stderr}`);
  return Number(match[1]);
}

function failed(step: string, result: CommandResult, logFile?: string): SetupError {
  const details = `${result.stdout}${result.stderr}`.trim();
  const log = logFile ? `\n--- ${logFile} ---\n${tailOf(logFile)}` : "";
  return new SetupError(`${step} failed (exit ${result.code}): ${details}${log}`);
}

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * PAYTAMI_PG_SETTINGS: settings of the provisioned cluster beyond ours, `name=value` pairs separated
 * by `;` (e.g. `shared_preload_libraries=pg_stat_statements`), written after ours so they win, and
 * applied at the next start. For looking inside PostgreSQL while measuring (test/bench/README.md);
 * nothing in the stack needs them.
 */
export function extraPgSettings(text: string | undefined): string[] {
  return (text ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair !== "")
    .map((pair) => {
      const match = /^([a-z_][a-z0-9_.]*)\s*=\s*(.*)$/i.exec(pair);
      if (!match) throw new SetupError(`PAYTAMI_PG_SETTINGS: "${pair}" is not name=value (pairs separated by ;)`);
      return `${match[1]!} = ${quote(match[2]!.trim())}`;
    });
}

// Unix socket paths are limited to 107 bytes; with a deep $PAYTAMI_HOME we go TCP-only.
function socketDirSetting(runDir: string, port: number): string {
  return `${runDir}/.s.PGSQL.${port}`.length <= 100 ? runDir : "";
}

export async function startPostgres(home: string): Promise<PostgresHandle> {
  const bindir = await ensurePostgresBinDir(home);
  const major = await serverMajor(bindir);
  if (major < MIN_MAJOR) throw new SetupError(`PostgreSQL ${major} found in ${bindir}; Paytami needs ${MIN_MAJOR} or newer`);

  const wanted = join(home, "postgres");
  const runAs: RunAs | undefined = chooseRunAs(join(wanted, "data"));
  const pgDir = await ownedDirectory(wanted, runAs);
  const dataDir = join(pgDir, "data");
  const runDir = join(pgDir, "run");
  const logFile = join(pgDir, "postgres.log");
  const portFile = join(pgDir, "port");
  const own = (path: string) => runAs && chownSync(path, runAs.uid, runAs.gid);
  // cwd and HOME inside the cluster directory: the unprivileged user may not be able to read ours.
  const asOwner = { uid: runAs?.uid, gid: runAs?.gid, cwd: pgDir, env: { ...process.env, HOME: pgDir } };
  const pgCtl = (args: string[]) => runCommand(join(bindir, "pg_ctl"), ["-D", dataDir, ...args], asOwner);

  for (const dir of [dataDir, runDir]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    own(dir);
  }

  const versionFile = join(dataDir, "PG_VERSION");
  if (!existsSync(versionFile)) {
    say(`initializing PostgreSQL ${major} cluster in ${dataDir}`);
    const init = await runCommand(join(bindir, "initdb"), ["-D", dataDir, "-U", ROLE, "--auth=trust", "-E", "UTF8", "--locale=C"], asOwner);
    if (init.code !== 0) throw failed("initdb", init);
    // Per-start settings live in their own file so we never rewrite the operator-visible config.
    appendFileSync(join(dataDir, "postgresql.conf"), "\n# Paytami dev stack: port and sockets, rewritten on every start\ninclude_if_exists = 'paytami.conf'\n");
  } else {
    const clusterMajor = Number(readFileSync(versionFile, "utf8").trim());
    if (clusterMajor !== major) {
      throw new SetupError(
        `${dataDir} was created by PostgreSQL ${clusterMajor} but ${bindir} is ${major}; delete ${pgDir} to start over or install PostgreSQL ${clusterMajor}`,
      );
    }
    // A cluster left running by a run that was killed hard: stop it, we start it on a fresh port.
    if ((await pgCtl(["status"])).code === 0) {
      say("stopping a PostgreSQL left running by an earlier run");
      await pgCtl(["stop", "-m", "fast", "-w", "-t", "60"]);
    }
  }

  const port = await savedOrFreePort(portFile);
  const settings = [
    `listen_addresses = '127.0.0.1'`,
    `port = ${port}`,
    `unix_socket_directories = ${quote(socketDirSetting(runDir, port))}`,
    // Tests run several core processes (each with a connection pool) against one server.
    `max_connections = 200`,
    ...extraPgSettings(process.env.PAYTAMI_PG_SETTINGS),
  ];
  const confFile = join(dataDir, "paytami.conf");
  writeFileSync(confFile, `${settings.join("\n")}\n`, { mode: 0o600 });
  own(confFile);

  const started = await pgCtl(["start", "-w", "-t", "120", "-s", "-l", logFile]);
  if (started.code !== 0) throw failed("pg_ctl start", started, logFile);
  writeFileSync(portFile, `${port}\n`);

  const stop = async () => {
    const stopped = await pgCtl(["stop", "-m", "fast", "-w", "-t", "60", "-s"]);
    if (stopped.code !== 0 && (await pgCtl(["status"])).code === 0) {
      warn(`pg_ctl stop failed: ${stopped.stderr.trim()}`);
    }
  };

  try {
    await ensureDatabase(bindir, port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://${ROLE}@127.0.0.1:${port}/${DATABASE}`, stop };
}

async function ensureDatabase(bindir: string, port: number): Promise<void> {
  const psql = (sql: string) =>
    runCommand(join(bindir, "psql"), ["-X", "-q", "-t", "-A", "-h", "127.0.0.1", "-p", String(port), "-U", ROLE, "-d", "postgres", "-c", sql], {
      env: { ...process.env, PGCONNECT_TIMEOUT: "10" },
    });
  const exists = await psql(`SELECT 1 FROM pg_database WHERE datname = ${quote(DATABASE)}`);
  if (exists.code !== 0) throw failed("psql", exists);
  if (exists.stdout.trim() === "1") return;
  const created = await psql(`CREATE DATABASE ${DATABASE}`);
  if (created.code !== 0) throw failed("CREATE DATABASE", created);
}

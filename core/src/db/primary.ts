// DESIGN §7: DATABASE_URL may name several hosts (postgres://u@h1:5432,h2:5432/paytami?target_session_attrs=read-write).
// node-postgres (8.x) reads one host only and has no target_session_attrs, so the connection factory
// here does what libpq does: find the host that accepts writes and connect there. Every connection
// the pools open (MikroORM's and kysely's, the relay's LISTEN) comes from it, so after a primary dies
// and a standby is promoted new connections find the new primary by themselves.
import pg from "pg";
import { namingClientClass, type ClientClass } from "./named-statements.ts";

export interface DatabaseHost {
  host: string;
  port: number;
}

/** A DATABASE_URL taken apart: its hosts in order, and what every connection to any of them shares. */
export interface DatabaseTarget {
  hosts: DatabaseHost[];
  user: string;
  password: string;
  database: string;
  /** target_session_attrs=read-write: only a host that is not in recovery (a primary) will do. */
  readWrite: boolean;
  /** The URL with the first host only: for libraries that read a URL themselves. */
  firstHostUrl: string;
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  const match = /^(postgres(?:ql)?:\/\/)(?:([^@/]*)@)?([^/?#]*)(.*)$/.exec(url);
  if (!match) throw new Error("DATABASE_URL must be a postgres:// URL");
  const [, scheme, auth, hostList, rest] = match as unknown as [string, string, string | undefined, string, string];
  const hosts = hostList.split(",").map((part): DatabaseHost => {
    const hostPort = /^(\[[^\]]+\]|[^:]*)(?::(\d+))?$/.exec(part);
    if (!hostPort || hostPort[1] === "") throw new Error(`DATABASE_URL: cannot read the host "${part}"`);
    return { host: hostPort[1]!.replace(/^\[|\]$/g, ""), port: hostPort[2] ? Number(hostPort[2]) : 5432 };
  });
  const parsed = new URL(`${scheme}${auth !== undefined ? `${auth}@` : ""}${hostList.split(",")[0]}${rest}`);
  const attrs = parsed.searchParams.get("target_session_attrs");
  if (attrs !== null && attrs !== "any" && attrs !== "read-write" && attrs !== "primary") {
    throw new Error(`DATABASE_URL: target_session_attrs=${attrs} is not supported (any, read-write or primary)`);
  }
  const firstHost = new URL(parsed);
  firstHost.searchParams.delete("target_session_attrs");
  return {
    hosts,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname).replace(/^\//, ""),
    // With several hosts any of them may be a standby: the writable one is the only one a core can use.
    readWrite: attrs === "read-write" || attrs === "primary" || (attrs === null && hosts.length > 1),
    firstHostUrl: firstHost.toString(),
  };
}

/** Raised when no host of DATABASE_URL accepts writes (all down, or the standby not promoted yet). */
export class NoPrimaryError extends Error {
  readonly code = "PAYTAMI_NO_PRIMARY";
  constructor(tried: string) {
    super(`no PostgreSQL host accepts writes (tried ${tried})`);
    this.name = "NoPrimaryError";
  }
}

const describe = (h: DatabaseHost) => `${h.host}:${h.port}`;

/**
 * Remembers which host is the primary; asks every host again (in parallel, one probe at a time for
 * the whole process) when it does not know, or was told the one it knew is gone.
 */
export class PrimaryLocator {
  readonly #target: DatabaseTarget;
  readonly #connectTimeoutMs: number;
  #known: DatabaseHost | undefined;
  #probing: Promise<DatabaseHost> | undefined;

  constructor(target: DatabaseTarget, connectTimeoutMs: number) {
    this.#target = target;
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  primary(): Promise<DatabaseHost> {
    if (this.#known) return Promise.resolve(this.#known);
    this.#probing ??= this.#probe().finally(() => (this.#probing = undefined));
    return this.#probing;
  }

  /** That host failed a connection or turned out read-only: ask again next time. */
  forget(host: DatabaseHost): void {
    if (this.#known === host) this.#known = undefined;
  }

  async #probe(): Promise<DatabaseHost> {
    const answers = await Promise.all(this.#target.hosts.map((host) => this.#writable(host).catch(() => false)));
    const found = this.#target.hosts.find((_, i) => answers[i]);
    if (!found) throw new NoPrimaryError(this.#target.hosts.map(describe).join(", "));
    this.#known = found;
    return found;
  }

  async #writable(host: DatabaseHost): Promise<boolean> {
    const client = new pg.Client({ ...connectionOptions(this.#target, this.#connectTimeoutMs), ...host, application_name: "paytami-core-probe" });
    client.on("error", () => undefined);
    try {
      await client.connect();
      return await isWritable(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

async function isWritable(client: pg.Client): Promise<boolean> {
  const result = await client.query<{ transaction_read_only: string }>("SHOW transaction_read_only");
  return result.rows[0]?.transaction_read_only === "off";
}

function connectionOptions(target: DatabaseTarget, connectTimeoutMs: number): pg.ClientConfig {
  return {
    user: target.user,
    password: target.password,
    database: target.database,
    connectionTimeoutMillis: connectTimeoutMs,
    // A primary that vanishes without closing its sockets (a machine, not a process, dying) is noticed.
    keepAlive: true,
  };
}

const NamingClient = namingClientClass(pg.Client);

/**
 * The pg client class every pool of this process uses; each sends PreparedStatement's texts as named
 * statements (named-statements.ts). One host, no target_session_attrs: pg's own client. Otherwise a
 * client that connects to the host the locator names and checks it still accepts writes.
 */
export function databaseClientClass(target: DatabaseTarget, connectTimeoutMs: number): ClientClass {
  if (!target.readWrite) return NamingClient;
  const locator = new PrimaryLocator(target, connectTimeoutMs);
  class PrimaryClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
      const connected = this.#connectToPrimary().then(() => this as pg.Client);
      if (!callback) return connected;
      const done = callback as (err: Error | null, c?: pg.Client) => void;
      connected.then((client) => done(null, client), done);
    }

    async #connectToPrimary(): Promise<void> {
      const host = await locator.primary();
      // pg connects to this.host/this.port; the pool made this client before anyone knew where.
      const self = this as unknown as { host: string; port: number; connectionParameters: { host: string; port: number } };
      self.host = self.connectionParameters.host = host.host;
      self.port = self.connectionParameters.port = host.port;
      try {
        await super.connect();
        if (await isWritable(this)) return;
      } catch (error) {
        locator.forget(host);
        throw error;
      }
      locator.forget(host);
      await this.end().catch(() => undefined);
      throw new NoPrimaryError(`${describe(host)}, which is read-only now`);
    }
  }
  return namingClientClass(PrimaryClient);
}

/** A new client (not connected) for DATABASE_URL, e.g. for LISTEN: on the primary when the URL asks for one. */
export function newDatabaseClient(databaseUrl: string, connectTimeoutMs: number, extra: pg.ClientConfig = {}): pg.Client {
  const target = parseDatabaseUrl(databaseUrl);
  if (!target.readWrite) return new pg.Client({ connectionString: databaseUrl, ...extra });
  const Client = databaseClientClass(target, connectTimeoutMs);
  return new Client({ ...connectionOptions(target, connectTimeoutMs), host: target.hosts[0]!.host, port: target.hosts[0]!.port, ...extra });
}

/** pg.Pool options for DATABASE_URL (the harness's and tools' pools): on the primary when the URL asks for one. */
export function databasePoolOptions(databaseUrl: string, connectTimeoutMs: number): pg.PoolConfig {
  const target = parseDatabaseUrl(databaseUrl);
  if (!target.readWrite) return { connectionString: databaseUrl, Client: NamingClient };
  const first = target.hosts[0]!;
  return { ...connectionOptions(target, connectTimeoutMs), host: first.host, port: first.port, Client: databaseClientClass(target, connectTimeoutMs) };
}

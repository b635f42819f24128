// The core's PostgreSQL pool when every connection is busy. pg-pool queues a request for a
// connection and, after connectionTimeoutMillis (DB_CONNECT_TIMEOUT), fails it with a bare
// Error("timeout exceeded when trying to connect"), which the transports used to answer 500
// internal_error. The client did nothing wrong and nothing ran (no statement is sent before a
// connection is acquired), so it is one typed error here, PoolSaturatedError, that the operation
// runner answers 503 with Retry-After. The same watch counts what /healthz and /metrics report, and
// gives back connections that ended while checked out (lost-connections.ts).
import type pg from "pg";
import { releaseWhenLost } from "./lost-connections.ts";

/** pg-pool's words for a queued acquisition that waited connectionTimeoutMillis (pg-pool/index.js). */
const ACQUIRE_TIMEOUT_MESSAGE = "timeout exceeded when trying to connect";

/** No pooled connection came free within DB_CONNECT_TIMEOUT: the core is overloaded, not broken. */
export class PoolSaturatedError extends Error {
  readonly code = "PAYTAMI_POOL_SATURATED";
  constructor(waitedMs: number) {
    super(`every PostgreSQL connection of the pool stayed busy for ${waitedMs} ms`);
    this.name = "PoolSaturatedError";
  }
}

/** True when `error`, or an error it wraps (MikroORM and kysely wrap pg's), is a pool acquisition that timed out. */
export function isPoolSaturated(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === "object" && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if (e instanceof PoolSaturatedError) return true;
  }
  return false;
}

export interface PoolStats {
  /** DB_POOL_SIZE summed over the watched pools. */
  max: number;
  /** Connections open, and of those the ones idle (the rest are busy). */
  total: number;
  idle: number;
  /** Requests queued for a connection right now. */
  waiting: number;
  /** Acquisitions that gave up (answered 503) since start. */
  acquireTimeouts: number;
  /** Whether one gave up within the last DB_CONNECT_TIMEOUT: the pool is saturated. */
  saturated: boolean;
}

/** The process's pools (normally one, MikroORM's), their acquisition timeouts turned into PoolSaturatedError. */
export class PoolWatch {
  readonly #pools: pg.Pool[] = [];
  #acquireTimeouts = 0;
  #lastTimeoutAt = -Infinity;
  #windowMs = 5_000;

  /** Wraps `pool.connect` (what kysely and MikroORM call to acquire); `timeoutMs` is its connectionTimeoutMillis. */
  watch(pool: pg.Pool, timeoutMs: number): void {
    this.#pools.push(pool);
    this.#windowMs = timeoutMs;
    type Callback = (error: unknown, client?: pg.PoolClient, release?: (error?: Error) => void) => void;
    const connect = pool.connect.bind(pool) as (callback?: Callback) => Promise<pg.PoolClient> | undefined;
    const saturated = (error: unknown): unknown => {
      if (!(error instanceof Error) || error.message !== ACQUIRE_TIMEOUT_MESSAGE) return error;
      this.#acquireTimeouts++;
      this.#lastTimeoutAt = performance.now();
      return new PoolSaturatedError(timeoutMs);
    };
    // kysely's PostgresDriver uses the promise form; the callback form is kept for anything else.
    pool.connect = ((callback?: Callback) => {
      if (callback)
        return connect((error, client) => {
          const held = client && releaseWhenLost(client);
          callback(error ? saturated(error) : error, held, held && ((releaseError?: Error) => held.release(releaseError)));
        });
      return connect()!.then(releaseWhenLost, (error: unknown) => {
        throw saturated(error);
      });
    }) as typeof pool.connect;
  }

  stats(): PoolStats {
    const sum = (count: (pool: pg.Pool) => number) => this.#pools.reduce((total, pool) => total + count(pool), 0);
    return {
      max: sum((pool) => pool.options.max ?? 10),
      total: sum((pool) => pool.totalCount),
      idle: sum((pool) => pool.idleCount),
      waiting: sum((pool) => pool.waitingCount),
      acquireTimeouts: this.#acquireTimeouts,
      saturated: performance.now() - this.#lastTimeoutAt < this.#windowMs,
    };
  }
}

/** This process's watch: ormConfig hands it every pool it makes. */
export const poolWatch = new PoolWatch();

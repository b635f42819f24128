import type pg from "pg";

/** pg-pool's release of the current checkout, while the connection is checked out; null between checkouts. */
const HELD = Symbol("release of the current checkout");
type Watched = pg.PoolClient & { [HELD]?: ((error?: Error | boolean) => void) | null };

/**
 * Gives back to the pool a checked-out connection that ended under its holder. kysely releases a
 * transaction's connection only once its COMMIT or ROLLBACK has succeeded (0.29,
 * ControlledTransaction), and neither can succeed on a connection that is gone: so every transaction
 * cut by a lost connection (a failover, a restart of PostgreSQL, DB_IDLE_IN_TRANSACTION_TIMEOUT) kept
 * one of the pool's DB_POOL_SIZE slots for good, and after as many such cuts every request waited for
 * a connection and was answered 503. The connection is released as broken (pg-pool closes it and
 * opens a new one when one is wanted); the holder's own release, if it comes, does nothing. One `end`
 * listener per connection, installed at its first checkout: a checkout only notes its release.
 */
export function releaseWhenLost(client: pg.PoolClient): pg.PoolClient {
  const watched = client as Watched;
  if (watched[HELD] === undefined) {
    client.once("end", () => {
      const release = watched[HELD];
      watched[HELD] = null;
      release?.(new Error("the connection ended while checked out"));
    });
  }
  // pg-pool's release of this checkout (a closure: bound only to satisfy the method's type).
  const release = client.release.bind(client);
  watched[HELD] = release;
  client.release = (error?: Error | boolean) => {
    if (watched[HELD] !== release) return;
    watched[HELD] = null;
    release(error);
  };
  return client;
}

import type pg from "pg";

/**
 * Gives back to the pool a checked-out connection that ended under its holder. kysely releases a
 * transaction's connection only once its COMMIT or ROLLBACK has succeeded (0.29,
 * ControlledTransaction), and neither can succeed on a connection that is gone: so every transaction
 * cut by a lost connection (a failover, a restart of PostgreSQL, DB_IDLE_IN_TRANSACTION_TIMEOUT) kept
 * one of the pool's DB_POOL_SIZE slots for good, and after as many such cuts every request waited for
 * a connection and was answered 503. The connection is released as broken (pg-pool closes it and
 * opens a new one when one is wanted); the holder's own release, if it comes, does nothing.
 */
export function releaseWhenLost(client: pg.PoolClient): pg.PoolClient {
  // pg-pool's release of this checkout (a closure: bound only to satisfy the method's type).
  const release = client.release.bind(client);
  let released = false;
  const lost = () => {
    if (released) return;
    released = true;
    release(new Error("the connection ended while checked out"));
  };
  client.once("end", lost);
  client.release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener("end", lost);
    release(error);
  };
  return client;
}

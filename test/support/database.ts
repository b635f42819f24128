// A migrated throw-away database for tests that call the core's domain and jobs in-process, on
// the PostgreSQL server of DATABASE_URL (which `npm test` provides). Each test file opens its own,
// so files can run in parallel.
import type { MikroORM } from "@mikro-orm/postgresql";
import { loadConfig } from "../../core/src/config.ts";
import { migrate, openOrm } from "../../core/src/db/orm.ts";
import type { CoreDeps } from "../../core/src/domain/deps.ts";
import type { Tx } from "../../core/src/domain/unit-of-work.ts";
import { createLogger } from "../../proto/runtime/logger.ts";
import { createDatabase, dropDatabase } from "./stack.ts";

export interface MigratedDatabase {
  orm: MikroORM;
  /** The core's dependencies on this database, with the test's clock. */
  deps: CoreDeps;
  /** Closes the pool and drops the database. */
  close(): Promise<void>;
}

export async function openMigratedDatabase(options: { poolSize: number; now: () => Date }): Promise<MigratedDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error("DATABASE_URL is not set; run the suite with `npm test`");
  const database = await createDatabase(adminUrl);
  const orm = await openOrm({ databaseUrl: database.url, poolSize: options.poolSize });
  await migrate(orm);
  // Loopback endpoints, as the cross-process harness allows them (stack.ts): tests' receivers listen there.
  const config = loadConfig({ DATABASE_URL: database.url, EMBED_TOKEN_SECRET: "test-embed-token-secret-0123456789abcdef", WEBHOOK_ALLOW_LOOPBACK: "true" });
  return {
    orm,
    deps: { orm, config, log: createLogger("test"), now: options.now },
    close: async () => {
      await orm.close();
      await dropDatabase(adminUrl, database.name);
    },
  };
}

class Rollback extends Error {}

/** Runs `work` in a transaction that is then rolled back, and gives what it returned: a statement tried with no trace left. */
export async function rolledBack<T>(deps: Pick<CoreDeps, "orm">, work: (tx: Tx) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await deps.orm.em
    .fork()
    .transactional(async (tx) => {
      result = await work(tx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return result!;
}

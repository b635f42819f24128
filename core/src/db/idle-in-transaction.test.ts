// DB_IDLE_IN_TRANSACTION_TIMEOUT against a real PostgreSQL: a transaction left waiting past it is
// ended by the server, its row locks released and its next statement a lost connection (retried once
// or answered 503, like a failover); the two transactions that wait by design keep their session.
import { sql } from "kysely";
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDatabase, dropDatabase } from "../../../test/support/stack.ts";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { inOneSnapshot } from "../domain/ledger-verify/snapshot.ts";
import { isConnectionLoss } from "./connection-loss.ts";
import { db, migrate, openOrm } from "./orm.ts";

const IDLE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: MigratedDatabase;
let orm: MikroORM;
beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
  orm = await openOrm({ databaseUrl: database.deps.config.databaseUrl, poolSize: 3, idleInTransactionTimeoutMs: IDLE_MS });
});
afterAll(async () => {
  await orm?.close();
  await database?.close();
});

describe("DB_IDLE_IN_TRANSACTION_TIMEOUT", () => {
  test("a transaction that waits past it loses its session and its row locks; its connection goes back to the pool", async () => {
    // One connection: were the lost one kept checked out, the pool would have none left.
    const single = await openOrm({ databaseUrl: database.deps.config.databaseUrl, poolSize: 1, idleInTransactionTimeoutMs: IDLE_MS });
    try {
      await sql`create table if not exists idle_probe (id int primary key)`.execute(db(database.orm.em.fork()));
      await sql`insert into idle_probe values (1) on conflict do nothing`.execute(db(database.orm.em.fork()));
      const failed = single.em
        .fork()
        .transactional(async (tx) => {
          await sql`select id from idle_probe where id = 1 for update`.execute(db(tx));
          // A core that stops here (hung, stopped, cut off) holds the row lock until the server ends its session.
          await sleep(IDLE_MS * 4);
          await sql`select 1`.execute(db(tx));
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      // Another session gets the row once the server has ended the stuck one (the harness's pool has no such timeout).
      const started = performance.now();
      await database.orm.em.fork().transactional(async (tx) => {
        await sql`select set_config('lock_timeout', '5000', true)`.execute(db(tx));
        await sql`select id from idle_probe where id = 1 for update`.execute(db(tx));
      });
      expect(performance.now() - started).toBeLessThan(IDLE_MS * 4);
      const error = await failed;
      expect(error).toBeInstanceOf(Error);
      expect(isConnectionLoss(error)).toBe(true);
      // The next statement gets a connection (a new one) at once, not after DB_CONNECT_TIMEOUT as 503.
      const next = await sql<{ n: number }>`select 1 as n`.execute(db(single.em.fork()));
      expect(next.rows[0]!.n).toBe(1);
    } finally {
      // A connection never given back would keep this waiting for ever.
      await single.close();
    }
  });

  test("ledger verify's snapshot transaction waits for the other pass as long as it takes", async () => {
    const deps = { ...database.deps, orm };
    const result = await inOneSnapshot(
      deps,
      orm.em.fork(),
      async () => "first",
      async (other) => {
        // The first pass is done at once; the snapshot's own transaction now waits, idle, for this one's long statement.
        return (await sql<{ n: number }>`select pg_sleep(${(IDLE_MS * 3) / 1000}), 2 as n`.execute(db(other))).rows[0]!.n;
      },
      async (main, a, b) => `${a} ${b} ${(await sql<{ n: number }>`select 3 as n`.execute(db(main))).rows[0]!.n}`,
    );
    expect(result).toBe("first 2 3");
  });

  test("the migration lock is held for the whole migration, however long the other connection takes", async () => {
    const adminUrl = process.env.DATABASE_URL!;
    const fresh = await createDatabase(adminUrl);
    // Well under the time every migration takes on an empty database (the lock's transaction waits that long).
    const migrating = await openOrm({ databaseUrl: fresh.url, poolSize: 2, idleInTransactionTimeoutMs: 100 });
    try {
      const started = performance.now();
      const applied = await migrate(migrating);
      expect(applied.length).toBeGreaterThan(10);
      expect(performance.now() - started).toBeGreaterThan(100);
    } finally {
      await migrating.close();
      await dropDatabase(adminUrl, fresh.name);
    }
  });
});

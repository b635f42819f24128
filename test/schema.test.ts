// Entities are the schema: the migrations must produce exactly what the entities declare (columns,
// types, nullability, defaults, identity columns, primary keys, uniques, indexes with their sort
// order and predicates, foreign keys, CHECKs), on a fresh database and on one `npm start` created
// before the entities took over. The judge is MikroORM's own schema comparator: any SQL it would
// run to bring the database to the entities is a difference.
import { afterAll, describe, expect, test } from "vitest";
import type { MikroORM } from "@mikro-orm/postgresql";
import { openSnapshotOrm } from "../core/src/db/migration-snapshot.ts";
import { MIGRATIONS } from "../core/src/db/migrations/index.ts";
import { migrate, openOrm } from "../core/src/db/orm.ts";
import { PAYMENT_STATUSES } from "../core/src/domain/payment-states.ts";
import { createDatabase, dropDatabase } from "./support/stack.ts";

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error("DATABASE_URL is not set; run the suite with `npm test`");

const databases: string[] = [];
afterAll(async () => {
  for (const name of databases) await dropDatabase(adminUrl, name);
});

async function withDatabase<T>(work: (orm: MikroORM) => Promise<T>): Promise<T> {
  const db = await createDatabase(adminUrl!);
  databases.push(db.name);
  const orm = await openOrm({ databaseUrl: db.url, poolSize: 2 });
  try {
    return await work(orm);
  } finally {
    await orm.close();
  }
}

/** The SQL that would bring the database to the entities; empty when they agree. */
async function differences(orm: MikroORM): Promise<string> {
  return (await orm.schema.getUpdateSchemaSQL({ wrap: false })).trim();
}

// The name databases created by `npm start` recorded in mikro_orm_migrations.
const INITIAL_SCHEMA = "2026-11-21-initial-schema";

async function executed(orm: MikroORM): Promise<string[]> {
  return (await orm.migrator.getExecuted()).map((m) => m.name);
}

describe("entities are the schema", () => {
  test("a fresh database, migrated, is exactly what the entities declare", async () => {
    await withDatabase(async (orm) => {
      expect(await migrate(orm)).toHaveLength(MIGRATIONS.length);
      expect(await differences(orm)).toBe("");
      expect(await migrate(orm)).toEqual([]);
    });
  });

  test("a database npm start created with only InitialSchema migrates to the entities, keeping its rows", async () => {
    await withDatabase(async (orm) => {
      await orm.migrator.up({ to: INITIAL_SCHEMA });
      expect(await executed(orm)).toEqual([INITIAL_SCHEMA]);
      const connection = orm.em.getConnection();
      await connection.execute(
        `insert into merchants (id, name, trade_name, currencies, methods, created_at) values ('mer_old', 'Old', 'Old', '{GTQ}', '{card}', now())`,
      );
      await connection.execute(
        `insert into payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount, refunded_amount,
           success_url, cancel_url, created_at, updated_at, expires_at)
         values ('pay_old', 'mer_old', 'test', 'captured', 'GTQ', 'card', 10000, 350, 9650, 0,
           'https://shop.example/ok', 'https://shop.example/back', now(), now(), now())`,
      );
      expect(await differences(orm)).not.toBe("");

      expect(await migrate(orm)).toHaveLength(MIGRATIONS.length - 1);
      expect(await executed(orm)).toHaveLength(MIGRATIONS.length);
      expect(await differences(orm)).toBe("");
      const rows = await connection.execute(`select id, amount, seq from payments`);
      expect(rows).toEqual([{ id: "pay_old", amount: "10000", seq: "1" }]);
    });
  });

  test("the committed migrator snapshot matches the entities (so the next generated migration holds only new changes)", async () => {
    const orm = await openSnapshotOrm();
    try {
      const differs = await orm.migrator.checkSchema();
      expect(differs, "entities changed without `npm run migration:create -- <name>`").toBe(false);
    } finally {
      await orm.close();
    }
  });
});

describe("payments.status", () => {
  test("holds only the state table's states, as the other status columns hold only theirs (a CHECK)", async () => {
    await withDatabase(async (orm) => {
      await migrate(orm);
      const connection = orm.em.getConnection();
      await connection.execute(
        `insert into merchants (id, name, trade_name, currencies, methods, created_at) values ('mer_x', 'X', 'X', '{GTQ}', '{card}', now())`,
      );
      const insert = (status: string, before: string | null) =>
        connection.execute(
          `insert into payments (id, merchant_id, mode, status, status_before_chargeback, currency, method_type, amount, service_fee, net_amount,
           success_url, cancel_url, created_at, updated_at, expires_at)
         values (?, 'mer_x', 'test', ?, ?, 'GTQ', 'card', 10000, 350, 9650, 'https://shop.example/ok', 'https://shop.example/back', now(), now(), now())`,
          [`pay_${status}_${before}`, status, before],
        );
      for (const status of PAYMENT_STATUSES) await insert(status, null);
      await insert("chargeback", "available_to_merchant");
      await expect(insert("paid", null)).rejects.toThrow(/payments_status_check/);
      await expect(insert("Captured", null)).rejects.toThrow(/payments_status_check/);
      await expect(insert("chargeback", "disputed")).rejects.toThrow(/payments_status_before_chargeback_check/);
    });
  });
});

describe("storage beyond the entities", () => {
  test("the relay's queue leaves half of each page free, so a claim's lease is a HOT update; the event store is written once and packed", async () => {
    await withDatabase(async (orm) => {
      await migrate(orm);
      const connection = orm.em.getConnection();
      const options = async (relname: string) =>
        (await connection.execute<{ reloptions: string[] | null }[]>(`select reloptions from pg_class where relname = ?`, [relname]))[0]!.reloptions;
      expect(await options("outbox_pending")).toEqual(["fillfactor=50"]);
      expect(await options("outbox_events")).toBeNull();
      await connection.execute(`insert into outbox_pending (seq) select n from generate_series(1, 400) n`);
      const pages = async () =>
        (await connection.execute<{ seq: string; page: string }[]>(`select seq, (ctid::text::point)[0]::text as page from outbox_pending order by seq`)).map(
          (r) => `${r.seq}@${r.page}`,
        );
      const before = await pages();
      // A claim: a batch of rows spread over the pages gets its lease.
      await connection.execute(`update outbox_pending set claimed_until = now() + interval '30 seconds' where seq % 4 = 0`);
      expect(await pages()).toEqual(before);
    });
  });

  test("events not yet published when the queue came in are its first rows, leases kept; published ones are not queued", async () => {
    await withDatabase(async (orm) => {
      const before = MIGRATIONS.findIndex((m) => m.name === "Migration20261126200604_outbox_pending");
      expect(before).toBeGreaterThan(0);
      await orm.migrator.up({ to: MIGRATIONS[before - 1]!.name });
      const connection = orm.em.getConnection();
      await connection.execute(
        `insert into outbox_events (id, merchant_id, mode, type, envelope, created_at, published_at, claimed_until)
         values ('evt_sent', 'mer_x', 'test', 'payment.succeeded', '{}', now(), now(), null),
                ('evt_waiting', 'mer_x', 'test', 'payment.succeeded', '{}', now(), null, null),
                ('evt_leased', 'mer_x', 'test', 'payment.succeeded', '{}', now(), null, now() + interval '30 seconds')`,
      );
      await migrate(orm);
      const queue = await connection.execute<{ id: string; leased: boolean }[]>(
        `select e.id, p.claimed_until is not null as leased from outbox_pending p join outbox_events e on e.seq = p.seq order by p.seq`,
      );
      expect(queue).toEqual([
        { id: "evt_waiting", leased: false },
        { id: "evt_leased", leased: true },
      ]);
      expect(await differences(orm)).toBe("");
    });
  });
});

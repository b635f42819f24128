import { Migrator } from "@mikro-orm/migrations";
import { MikroORM, type EntityManager, type InferKyselyDB, type Options } from "@mikro-orm/postgresql";
import type { Kysely } from "kysely";
import type pg from "pg";
import {
  ENTITIES,
  type ApiKey,
  type AuditEntry,
  type RequestLog,
  type DashboardSession,
  type DashboardUser,
  type Membership,
  type UserToken,
  type BankAccount,
  type Chargeback,
  type LedgerLine,
  type LedgerTransaction,
  type Payout,
  type Refund,
  type IdempotencyKey,
  type Link,
  type LinkRateLimit,
  type Merchant,
  type MerchantLogo,
  type OutboxEvent,
  type OutboxPending,
  type Payment,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "./entities/index.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import { poolWatch } from "./pool-watch.ts";
import { databaseClientClass, parseDatabaseUrl } from "./primary.ts";
import { TimestampsPlugin } from "./timestamps-plugin.ts";

export type DB = InferKyselyDB<
  | typeof Merchant
  | typeof ApiKey
  | typeof Payment
  | typeof IdempotencyKey
  | typeof OutboxEvent
  | typeof OutboxPending
  | typeof Link
  | typeof LinkRateLimit
  | typeof WebhookEndpoint
  | typeof WebhookDelivery
  | typeof WebhookAttempt
  | typeof LedgerTransaction
  | typeof LedgerLine
  | typeof Refund
  | typeof Chargeback
  | typeof BankAccount
  | typeof Payout
  | typeof DashboardUser
  | typeof Membership
  | typeof DashboardSession
  | typeof UserToken
  | typeof AuditEntry
  | typeof RequestLog
  | typeof MerchantLogo
>;
export type Db = Kysely<DB>;
export type { EntityManager };

export interface OrmOptions {
  databaseUrl: string;
  poolSize: number;
  /** DB_CONNECT_TIMEOUT: how long a new connection (or a probe for the primary) may take, and how long a request waits for a busy pool. */
  connectTimeoutMs?: number;
  /** DB_IDLE_IN_TRANSACTION_TIMEOUT (config.ts): sent as the session's idle_in_transaction_session_timeout; none when absent. */
  idleInTransactionTimeoutMs?: number;
}

export function ormConfig({ databaseUrl, poolSize, connectTimeoutMs = 5_000, idleInTransactionTimeoutMs }: OrmOptions): Options {
  // Several hosts (DESIGN §7): MikroORM reads the first from the URL, the pool's client class finds the primary.
  const target = parseDatabaseUrl(databaseUrl);
  return {
    clientUrl: target.firstHostUrl,
    driverOptions: {
      Client: databaseClientClass(target, connectTimeoutMs),
      // pg-pool applies it to a new connection and to a request queued for a busy one alike; the
      // latter comes back as PoolSaturatedError (pool-watch.ts), answered 503 rather than 500.
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
      // A startup parameter of each connection: no statement of its own.
      ...(idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: idleInTransactionTimeoutMs } : {}),
      onPoolCreated: (pool: pg.Pool) => poolWatch.watch(pool, connectTimeoutMs),
    },
    entities: ENTITIES,
    extensions: [Migrator],
    // At run time the migrator only applies the compiled MIGRATIONS: it never reads or writes the
    // schema snapshot (no files in the working directory), and stays quiet outside our JSON logs.
    // Only `npm run migration:create` (create-migration.ts) turns the snapshot on.
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, snapshot: false, snapshotOnMigrate: false, silent: true },
    pool: { min: 0, max: poolSize },
    debug: false,
  };
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(options));
}

/** The typed query builder bound to `em` (and to its transaction, when inside one). */
export function db(em: EntityManager): Db {
  // getKysely() hands out the pool's instance, or the transaction's; wrapping it anew on every call
  // showed up in the payment-creation profile, so each is wrapped once.
  const raw = em.getKysely<DB>();
  let wrapped = withTimestamps.get(raw);
  if (!wrapped) withTimestamps.set(raw, (wrapped = raw.withPlugin(timestamps)));
  return wrapped;
}

const timestamps = new TimestampsPlugin();
const withTimestamps = new WeakMap<Kysely<DB>, Db>();

/**
 * Switches DB_IDLE_IN_TRANSACTION_TIMEOUT off for the rest of the transaction whose statement selects
 * it: for the transactions that wait idle by design (the migration lock, ledger verify's snapshot). A
 * select-list expression, so it rides on the transaction's first statement instead of adding one.
 */
export const NO_IDLE_TIMEOUT_SQL = "set_config('idle_in_transaction_session_timeout', '0', true)";

// Any number of cores may start at once against one database: only one of
// them applies migrations, the others wait for it and then find nothing to do.
// The lock is held by this transaction while the migrator works on another
// pooled connection, so the pool needs at least two connections.
const MIGRATION_LOCK = 7_242_001;

export async function migrate(orm: MikroORM): Promise<string[]> {
  const connection = orm.em.getConnection();
  return connection.transactional(async (trx) => {
    // The lock's transaction waits, idle, while the migrator works on another connection: as long as that takes.
    await connection.execute(`select ${NO_IDLE_TIMEOUT_SQL}, pg_advisory_xact_lock(?)`, [MIGRATION_LOCK], "all", trx);
    const applied = await orm.migrator.up();
    return applied.map((m) => m.name);
  });
}

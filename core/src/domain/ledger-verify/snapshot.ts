import { sql } from "kysely";
import { db, NO_IDLE_TIMEOUT_SQL } from "../../db/orm.ts";
import type { CoreDeps } from "../deps.ts";
import type { Tx } from "../unit-of-work.ts";

/**
 * Runs `first` and `second` against one consistent state of the database, then `then` with both
 * results. When `tx` is no transaction they run at once in two REPEATABLE READ, READ ONLY
 * transactions on two connections sharing one exported snapshot (like PostgreSQL's own parallel
 * workers), so a verify next to live traffic sees one state and uses both cores; inside a caller's
 * transaction they run one after another in it.
 */
export async function inOneSnapshot<A, B, R>(
  deps: CoreDeps,
  tx: Tx,
  first: (tx: Tx) => Promise<A>,
  second: (tx: Tx) => Promise<B>,
  then: (tx: Tx, a: A, b: B) => Promise<R>,
): Promise<R> {
  if (tx.isInTransaction()) {
    const [a, b] = [await first(tx), await second(tx)];
    return then(tx, a, b);
  }
  const snapshot = { isolationLevel: "repeatable read", readOnly: true } as const;
  return tx.transactional(async (main) => {
    // Raw (both statements): snapshot export and import are utility statements the builder has no form for.
    // This transaction waits, idle, while the other pass runs (as long as a large ledger takes): no idle timeout for it.
    const id = (await sql<{ id: string }>`select pg_export_snapshot() as id, ${sql.raw(NO_IDLE_TIMEOUT_SQL)}`.execute(db(main))).rows[0]!.id;
    const [a, b] = await Promise.all([
      first(main),
      deps.orm.em.fork().transactional(async (other) => {
        await sql`set transaction snapshot ${sql.lit(id)}`.execute(db(other));
        return second(other);
      }, snapshot),
    ]);
    return then(main, a, b);
  }, snapshot);
}

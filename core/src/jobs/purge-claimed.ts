import type { Kysely, SelectQueryBuilder } from "kysely";
import type { DB } from "../db/orm.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { handleClaimed, type ClaimPolicy, type NoColumns, type Tally, type WorkQueue } from "./claim.ts";

/** Any table with any columns: the delete names the queue's table and key columns, which the queue's types have checked. */
type LooseDB = Record<string, Record<string, unknown>>;

/**
 * The one retention purge: claims up to `policy.batch` due rows of `queue` and deletes them by
 * `key` (the columns the queue selects that identify a row: one, or two compared as a pair),
 * in the claiming transaction. Tally: `{ purged: n }`.
 */
export function purgeClaimed<T extends keyof DB, Row extends Record<string, unknown>>(
  deps: CoreDeps,
  queue: WorkQueue<T, Row>,
  key: readonly [keyof Row & string] | readonly [keyof Row & string, keyof Row & string],
  policy: ClaimPolicy,
): Promise<Tally> {
  return handleClaimed(deps, queue, policy, async (tx, rows) => {
    const table = db(tx) as unknown as Kysely<LooseDB>;
    const [first, second] = key as readonly [string, string?];
    const values = rows as readonly Record<string, unknown>[];
    await table
      .deleteFrom(queue.table as string)
      .where((eb) =>
        second === undefined
          ? eb(
              first,
              "in",
              values.map((row) => row[first]),
            )
          : eb(
              eb.refTuple(first, second),
              "in",
              values.map((row) => eb.tuple(row[first], row[second])),
            ),
      )
      .execute();
    return { value: { purged: rows.length }, events: [] };
  });
}

/** The logs kept for a retention, alike in what the purge reads: a `seq` key and an indexed `created_at`. */
type LogTable = "audit_log" | "request_logs";

/** A log table's rows older than `retentionMs`, oldest first. */
export function pastRetention<T extends LogTable>(job: string, table: T, retentionMs: number): WorkQueue<T, { seq: string }> {
  return {
    job,
    table,
    // Written once for both tables: Kysely cannot narrow a select over a union of tables, so the
    // query is typed as one of them (the columns used are the same) and handed back as `T`'s.
    due: (rows, now) =>
      (rows as unknown as SelectQueryBuilder<DB, "audit_log", NoColumns>)
        .select("seq")
        .where("created_at", "<=", new Date(now.getTime() - retentionMs))
        .orderBy("created_at") as unknown as SelectQueryBuilder<DB, T, { seq: string }>,
  };
}

import type { Kysely } from "kysely";
import type { DB } from "../db/orm.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { handleClaimed, type ClaimPolicy, type Tally, type WorkQueue } from "./claim.ts";

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

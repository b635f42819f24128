import { db } from "../../db/orm.ts";
import type { CoreDeps } from "../deps.ts";
import { aloneOrTogether, GroupCommit } from "../group-commit.ts";
import type { Tx } from "../unit-of-work.ts";
import type { BatchValues } from "./batch-statement.ts";
import type { CreationRow, CreationValues } from "./creation-statement.ts";
import type { OwnerKind } from "./owner-kind.ts";

// Group commit (core/README.md "Group commit"): creation statements that arrive while one is in
// flight wait for it, then run together as one statement over arrays. The statement is atomic, so
// a crash loses or keeps the whole batch (no key with zero or two payments); each request keeps its
// own answer (the row it gets back is exactly what its own statement would have returned).

type Values = Record<string, unknown> & CreationValues;

interface Queued {
  /** The request's own unit of work (outside any transaction); a batch runs in its first request's. */
  tx: Tx;
  values: Values;
}

/** What one request's creation statement returns: its owner (if the credential resolved) and whether it inserted. */
export type CreationOutcome = CreationRow | undefined;

/** The sizes of the batches run so far (index: size), for the benchmark's distribution. */
export const batchSizes: number[] = [];

/** Batch statements that failed, whose requests then ran one by one (a deadlock between cores; anything else is a bug). */
export const batchFailures = { count: 0 };

class CreationBatcher {
  readonly #kind: OwnerKind<Record<string, unknown>>;
  readonly #queue: GroupCommit<Queued, CreationOutcome>;

  constructor(deps: CoreDeps, kind: OwnerKind<Record<string, unknown>>) {
    this.#kind = kind;
    this.#queue = new GroupCommit({
      name: "create_charge",
      policy: () => deps.config.createBatch,
      // PostgreSQL refuses a row claimed twice in one statement.
      key: ({ values }) => values.idempotency_key,
      sizes: batchSizes,
      run: aloneOrTogether({
        // One request: the single statement, exactly as without batching.
        alone: async ({ tx, values }) => (await this.#kind.creation.run(db(tx), values)).rows[0],
        together: async (batch) => {
          const { rows } = await this.#kind.batchCreation.run(db(batch[0]!.tx), this.#arrays(batch));
          return rows.map((row) => ({ ok: row.scope === null || row.scope === undefined ? undefined : (row as CreationRow) }));
        },
        failures: batchFailures,
      }),
    });
  }

  submit(tx: Tx, values: Values): Promise<CreationOutcome> {
    return this.#queue.submit({ tx, values });
  }

  #arrays(batch: Queued[]): BatchValues {
    const arrays: BatchValues = {};
    const names = [...Object.keys(this.#kind.columns), ...Object.keys(batch[0]!.values).filter((name) => !(name in this.#kind.columns))];
    for (const name of names) arrays[name] = batch.map(({ values }) => values[name]);
    // A policy's lists as text (unnest would flatten an array of arrays).
    arrays.currencies = batch.map(({ values }) => values.currencies.join(","));
    arrays.methods = batch.map(({ values }) => values.methods.join(","));
    return arrays;
  }
}

const batchers = new WeakMap<CoreDeps, Map<OwnerKind<Record<string, unknown>>, CreationBatcher>>();

/** Runs one request's creation statement in the next batch of its owner kind (per core: `deps`). */
export function createInBatch(deps: CoreDeps, tx: Tx, kind: OwnerKind<Record<string, unknown>>, values: Values): Promise<CreationOutcome> {
  let byKind = batchers.get(deps);
  if (!byKind) batchers.set(deps, (byKind = new Map<OwnerKind<Record<string, unknown>>, CreationBatcher>()));
  let batcher = byKind.get(kind);
  if (!batcher) byKind.set(kind, (batcher = new CreationBatcher(deps, kind)));
  return batcher.submit(tx, values);
}

import { db } from "../../db/orm.ts";
import { isPoolSaturated } from "../../db/pool-watch.ts";
import type { CoreDeps } from "../deps.ts";
import { GroupCommit, type Pending } from "../group-commit.ts";
import type { Tx } from "../unit-of-work.ts";
import type { BatchRow, BatchValues } from "./batch-statement.ts";
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

type Waiting = Pending<Queued, CreationOutcome>;

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
      run: (batch) => (batch.length === 1 ? this.#alone(batch[0]!) : this.#together(batch)),
    });
  }

  submit(tx: Tx, values: Values): Promise<CreationOutcome> {
    return this.#queue.submit({ tx, values });
  }

  /** One request: the single statement, exactly as without batching. */
  async #alone(waiting: Waiting): Promise<void> {
    try {
      const { rows } = await this.#kind.creation.run(db(waiting.item.tx), waiting.item.values);
      waiting.resolve(rows[0]);
    } catch (error) {
      waiting.reject(error);
    }
  }

  async #together(batch: Waiting[]): Promise<void> {
    let rows: BatchRow[];
    try {
      ({ rows } = await this.#kind.batchCreation.run(db(batch[0]!.item.tx), this.#arrays(batch)));
    } catch (error) {
      if (isPoolSaturated(error)) {
        // No connection came free: the statement never ran, and one statement per request would
        // only queue each of them for another DB_CONNECT_TIMEOUT. Every request answers 503 now.
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      batchFailures.count += 1;
      // The statement wrote nothing (e.g. a deadlock with another core's batch over the same keys):
      // each request runs its own statement, so whatever failed fails only its own request.
      await Promise.all(batch.map((waiting) => this.#alone(waiting)));
      return;
    }
    batch.forEach((waiting, i) => {
      const row = rows[i]!;
      waiting.resolve(row.scope === null || row.scope === undefined ? undefined : (row as CreationRow));
    });
  }

  #arrays(batch: Waiting[]): BatchValues {
    const arrays: BatchValues = {};
    const names = [...Object.keys(this.#kind.columns), ...Object.keys(batch[0]!.item.values).filter((name) => !(name in this.#kind.columns))];
    for (const name of names) arrays[name] = batch.map(({ item }) => item.values[name]);
    // A policy's lists as text (unnest would flatten an array of arrays).
    arrays.currencies = batch.map(({ item }) => item.values.currencies.join(","));
    arrays.methods = batch.map(({ item }) => item.values.methods.join(","));
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

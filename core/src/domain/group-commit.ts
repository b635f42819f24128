// The queue every group commit shares (core/README.md "Group commit"): a request goes out at once
// when nothing is in flight; those that arrive while a batch runs wait for it and then go together.
// What a batch does with its requests (one statement, one transaction) is the owner's `run`, most
// often made by aloneOrTogether from what one request and several do.
import { capturedContext, contextOf, inContext, inSpan, linksToSpansIn, tracingOn, type Context } from "../../../proto/runtime/spans.ts";
import { isPoolSaturated } from "../db/pool-watch.ts";

/** How big a batch may grow and how long an idle queue waits for company (CREATE_BATCH_*, REFUND_BATCH_*). */
export interface GroupCommitPolicy {
  max: number;
  /** ms; 0 = never wait. */
  waitMs: number;
}

/** One request in the queue: what it carries and how it is answered. */
export interface Pending<T, R> {
  readonly item: T;
  /** The request's tracing context (tracing on), so the batch's SQL is traced on its behalf. */
  readonly context?: Context | undefined;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions<T, R> {
  /** Names a batch's span (`<name> batch`), tracing on. */
  name: string;
  /** Read at each decision, so the core's config (or a test's deps) is the only source. */
  policy: () => GroupCommitPolicy;
  /**
   * Requests with the same key never share a batch (one statement cannot claim a row twice): the
   * later one waits for the next. Without it, any requests may share one (the batch folds repeats itself).
   */
  key?: (item: T) => string;
  /** Batches run so far, by size (index: size), for /metrics and the benchmarks. */
  sizes: number[];
  /** Runs one batch (arrival order) and answers every request in it; it must not throw. */
  run: (batch: Pending<T, R>[]) => Promise<void>;
}

export class GroupCommit<T, R> {
  readonly #options: GroupCommitOptions<T, R>;
  #queue: Pending<T, R>[] = [];
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  /** The last batch's size: an idle queue waits for company only while requests have been arriving together. */
  #lastSize = 1;

  constructor(options: GroupCommitOptions<T, R>) {
    this.#options = options;
  }

  submit(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, context: capturedContext(), resolve, reject });
      if (this.#running) return;
      const { max, waitMs } = this.#options.policy();
      if (this.#queue.length >= max || waitMs === 0 || this.#lastSize <= 1) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        void this.#flush();
      } else {
        this.#timer ??= setTimeout(() => {
          this.#timer = undefined;
          void this.#flush();
        }, waitMs);
      }
    });
  }

  /** Up to `max` waiting requests in arrival order, no key twice. */
  #take(): Pending<T, R>[] {
    const { max } = this.#options.policy();
    const { key: keyOf } = this.#options;
    if (!keyOf) return this.#queue.splice(0, max);
    const keys = new Set<string>();
    const batch: Pending<T, R>[] = [];
    const rest: Pending<T, R>[] = [];
    for (const pending of this.#queue) {
      const key = keyOf(pending.item);
      if (batch.length < max && !keys.has(key)) {
        keys.add(key);
        batch.push(pending);
      } else rest.push(pending);
    }
    this.#queue = rest;
    return batch;
  }

  /**
   * Tracing on, a batch's statements are traced where its requests can find them: a lone request's
   * under its own operation span, as if it had not queued; a batch of several under a span of its
   * own (a trace of its own) linked to each request's span, as the dispatcher's record spans are.
   */
  #traced(batch: Pending<T, R>[]): Promise<void> {
    const { run, name } = this.#options;
    if (!tracingOn()) return run(batch);
    if (batch.length === 1) return inContext(batch[0]!.context, () => run(batch));
    const links = linksToSpansIn(batch.map((p) => p.context));
    if (links.length === 0) return run(batch);
    return inSpan(`${name} batch`, { parent: contextOf(null), links, attributes: { "paytami.batch_size": batch.length } }, () => run(batch));
  }

  async #flush(): Promise<void> {
    this.#running = true;
    const batch = this.#take();
    this.#lastSize = batch.length;
    const { sizes } = this.#options;
    sizes[batch.length] = (sizes[batch.length] ?? 0) + 1;
    try {
      await this.#traced(batch);
    } finally {
      this.#running = false;
      // Those that arrived meanwhile have waited one batch already: they go now.
      if (this.#queue.length > 0) void this.#flush();
    }
  }
}

/** A request's answer from a batch: its value, or the catalog error it alone gets. */
export type Outcome<R> = { ok: R } | { error: unknown };

/** What a batcher does: one request as it would run unbatched, and several in one go. */
export interface BatchWork<T, R> {
  /** One request, exactly as without batching. */
  alone(item: T): Promise<R>;
  /** Several in one statement or transaction: an outcome per request, in order; throws (writing nothing) on a database failure or a bug. */
  together(items: T[]): Promise<Outcome<R>[]>;
  /** Batches that threw, whose requests then ran alone (a deadlock between cores; anything else is a bug), for /metrics. */
  failures: { count: number };
}

/**
 * The `run` every group commit shares: a batch of one runs alone; a batch that throws wrote
 * nothing, so its requests run alone one after another in arrival order, and whatever failed
 * fails only its own request — unless no connection came free (the batch never ran: one run per
 * request would only queue each for another DB_CONNECT_TIMEOUT), when every request answers that.
 */
export function aloneOrTogether<T, R>(work: BatchWork<T, R>): (batch: Pending<T, R>[]) => Promise<void> {
  const alone = async (waiting: Pending<T, R>) => {
    try {
      waiting.resolve(await work.alone(waiting.item));
    } catch (error) {
      waiting.reject(error);
    }
  };
  return async (batch) => {
    if (batch.length === 1) return alone(batch[0]!);
    let outcomes: Outcome<R>[];
    try {
      outcomes = await work.together(batch.map(({ item }) => item));
    } catch (error) {
      if (isPoolSaturated(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      work.failures.count += 1;
      for (const waiting of batch) await alone(waiting);
      return;
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if ("ok" in outcome) waiting.resolve(outcome.ok);
      else waiting.reject(outcome.error);
    });
  };
}

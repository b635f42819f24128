import { Worker } from "node:worker_threads";

// A worker thread that a process keeps for as long as it runs: the request-log publisher of the
// facade and the request-log writer of the core. Both want the same things: a bounded heap, a new
// thread when one ends without being asked, and a shutdown that does not wait on a thread that has
// already finished its work (a thread listening on its port never exits by itself).

/** The module of a thread beside `base` (the caller's import.meta.url): `.js` when built to dist/, `.ts` when run from the sources. */
export const threadModule = (base: string, name: string) => new URL(`./${name}${base.endsWith(".ts") ? ".ts" : ".js"}`, base);

/** What every supervised thread posts when it has finished after a `close` message. */
export interface ThreadClosed {
  type: "closed";
}

/**
 * V8 sizes a thread's young generation like a main thread's: about 55 MB more resident for a thread
 * churning through batches, against about 31 MB at 8 MB, for the same time spent (measured with
 * 100-record batches parsed and serialised in a loop). These threads' garbage is one batch at a time.
 */
const YOUNG_GENERATION_MB = 8;

/** How long after a thread's unasked end (out of its heap, say) a new one starts, unless said. */
const RESPAWN_AFTER_MS = 1_000;

/** How long a thread may take to finish what it holds after `close` (NATS gone, say) before it is stopped, unless said. */
const CLOSE_GRACE_MS = 5_000;

export interface SupervisedThreadOptions<Out> {
  module: URL;
  /** The thread's name (in stack traces and heap snapshots). */
  name: string;
  workerData: unknown;
  /** Its old-generation heap: a thread's garbage must not grow the process's memory without limit. */
  heapMb: number;
  /** How long after an unasked end a new thread starts; RESPAWN_AFTER_MS unless said. */
  respawnAfterMs?: number;
  /** How long a thread may take to finish after `close` before it is stopped; CLOSE_GRACE_MS unless said. */
  closeGraceMs?: number;
  /** Every message a thread posts, but `closed`. */
  onMessage(message: Out): void;
  /** A thread failed with an uncaught error (it ends, and is replaced). */
  onError(err: Error): void;
  /** A thread ended, asked or not: what depended on it resets. */
  onExit?(): void;
  /** A thread started, the first or a replacement. */
  onStart?(): void;
  /** A replacement is starting after an unasked end (for the process's restart counter). */
  onRespawn?(): void;
}

export class SupervisedThread<In extends { type: string }, Out extends { type: string }> {
  readonly #options: SupervisedThreadOptions<Out>;
  #worker!: Worker;
  #ended!: Promise<void>;
  #closing = false;
  #respawns = 0;

  constructor(options: SupervisedThreadOptions<Out>) {
    this.#options = options;
    this.#spawn();
  }

  /** How many times a thread was replaced after an unasked end. */
  get respawns(): number {
    return this.#respawns;
  }

  /** The current thread's id (a replacement has a new one). */
  get threadId(): number {
    return this.#worker.threadId;
  }

  #spawn(): void {
    const { module, name, workerData, heapMb } = this.#options;
    const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
    const worker = new Worker(module, { workerData, name, resourceLimits });
    this.#worker = worker;
    // Ended: it exited, or it said it has finished after `close` (it would otherwise wait on its port).
    this.#ended = new Promise<void>((resolve) => {
      worker.once("exit", () => resolve());
      worker.on("message", (message: Out | ThreadClosed) => message.type === "closed" && resolve());
    });
    worker.on("message", (message: Out | ThreadClosed) => {
      if (message.type !== "closed") this.#options.onMessage(message as Out);
    });
    worker.on("error", (err: Error) => this.#options.onError(err));
    worker.once("exit", () => {
      this.#options.onExit?.();
      if (!this.#closing)
        setTimeout(() => {
          if (this.#closing) return;
          this.#respawns++;
          this.#options.onRespawn?.();
          this.#spawn();
        }, this.#options.respawnAfterMs ?? RESPAWN_AFTER_MS).unref();
    });
    // A thread must not keep a process that is shutting down alive.
    worker.unref();
    this.#options.onStart?.();
  }

  /** Posts to the current thread; throws if the message cannot be copied to it. */
  post(message: In): void {
    this.#worker.postMessage(message);
  }

  /** Asks the thread to finish (`message`), waits for it (at most the grace period), then stops it. */
  async close(message: In): Promise<void> {
    this.#closing = true;
    const worker = this.#worker;
    worker.postMessage(message);
    const timer = setTimeout(() => void worker.terminate(), this.#options.closeGraceMs ?? CLOSE_GRACE_MS);
    await this.#ended;
    clearTimeout(timer);
    await worker.terminate();
  }
}

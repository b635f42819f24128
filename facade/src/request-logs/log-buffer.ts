// The recorder's buffer: bounded, flushed by count or by time, never awaited by a request.

export interface LogBufferPolicy {
  /** Flush as soon as this many entries wait. */
  batchSize: number;
  /** Flush what waits at least this often. */
  flushMs: number;
  /** Entries held at most; past it a new entry is dropped (and counted), the buffer never grows. */
  maxEntries: number;
}

export interface LogBufferHooks<T> {
  /** Sends one batch; must not throw (a failed send is the sender's to count). */
  flush(batch: T[]): void;
  /** Called once per entry refused because the buffer was full. */
  dropped(count: number): void;
}

export class LogBuffer<T> {
  readonly #policy: LogBufferPolicy;
  readonly #hooks: LogBufferHooks<T>;
  #entries: T[] = [];
  #timer: NodeJS.Timeout | undefined;
  #scheduled = false;

  constructor(policy: LogBufferPolicy, hooks: LogBufferHooks<T>) {
    this.#policy = policy;
    this.#hooks = hooks;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Adds an entry, or drops it when the buffer is full; a full batch is flushed on the next turn of the event loop. */
  add(entry: T): void {
    if (this.#entries.length >= this.#policy.maxEntries) {
      this.#hooks.dropped(1);
      return;
    }
    this.#entries.push(entry);
    if (this.#entries.length >= this.#policy.batchSize) {
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.flush();
        });
      }
    } else {
      this.#timer ??= setTimeout(() => this.flush(), this.#policy.flushMs).unref();
    }
  }

  /** Sends everything waiting, in batches of at most batchSize. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#entries.length > 0) this.#hooks.flush(this.#entries.splice(0, this.#policy.batchSize));
  }
}

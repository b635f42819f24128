import { Worker } from "node:worker_threads";
import type { CoreDeps } from "../domain/deps.ts";
import { requestLogRecords } from "../metrics.ts";

/** What the writer's thread needs: where batches come from and where they go. */
export interface WriterThreadData {
  natsUrl: string;
  subject: string;
  databaseUrl: string;
  connectTimeoutMs: number;
}

export type ToWriterThread = { type: "close" };
export type FromWriterThread =
  | { type: "records"; outcome: "written" | "unknown_key" | "failed" | "malformed"; count: number }
  | { type: "log"; level: "warn" | "error"; msg: string; err: string }
  | { type: "connected"; connected: boolean }
  | { type: "closed" };

/** How long after a thread's unexpected end a new one starts. */
const RESPAWN_AFTER_MS = 1_000;

// The built core runs from dist/ (.js); tests and tools may run the sources (.ts).
const THREAD = new URL(`./request-log-thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url);

/**
 * The core's side of the request logs: a plain NATS subscription in a queue group, so each batch
 * a facade publishes is written by exactly one of the cores, with one statement. What arrives is
 * checked against the contract (proto/request-log.ts) first: anything on the subject that is not a
 * well-formed batch is dropped and counted, never written. The work runs on a thread of its own
 * (request-log-thread.ts); this side keeps the metrics, the log and the health answer.
 */
export class RequestLogWriter {
  readonly #deps: CoreDeps;
  #worker: Worker | undefined;
  #connected = false;
  #closed: Promise<void> | undefined;
  #closing = false;

  constructor(deps: CoreDeps) {
    this.#deps = deps;
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** Starts the thread; resolves once it is subscribed (or rejects if it could not start). */
  start(natsUrl: string, subject: string): Promise<void> {
    return this.#spawn({ natsUrl, subject, databaseUrl: this.#deps.config.databaseUrl, connectTimeoutMs: this.#deps.config.dbConnectTimeoutMs });
  }

  #spawn(workerData: WriterThreadData): Promise<void> {
    const { config, log } = this.#deps;
    // Its heap is bounded: the thread's garbage must not grow the core's memory without limit.
    const worker = new Worker(THREAD, { workerData, name: "request-log-writer", resourceLimits: { maxOldGenerationSizeMb: config.requestLogs.threadHeapMb } });
    this.#worker = worker;
    let started: () => void;
    const subscribed = new Promise<void>((resolve) => (started = resolve));
    this.#closed = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.on("message", (message: FromWriterThread) => {
      if (message.type === "records") requestLogRecords.inc({ outcome: message.outcome }, message.count);
      else if (message.type === "log") log[message.level]({ err: message.err }, message.msg);
      else if (message.type === "connected") {
        this.#connected = message.connected;
        started();
      }
    });
    worker.on("error", (err) => {
      this.#connected = false;
      log.error({ err }, "request logs: the writer thread failed; logs are dropped until it is back");
    });
    worker.once("exit", () => {
      this.#connected = false;
      // An end the core did not ask for (out of its heap, say): a new thread after a pause.
      if (!this.#closing) setTimeout(() => void this.#spawn(workerData).catch(() => undefined), RESPAWN_AFTER_MS).unref();
    });
    // The thread must not keep a core that is shutting down alive.
    worker.unref();
    return Promise.race([subscribed, new Promise<void>((_, reject) => worker.once("error", reject))]);
  }

  async close(): Promise<void> {
    this.#closing = true;
    const worker = this.#worker;
    if (!worker) return;
    worker.postMessage({ type: "close" } satisfies ToWriterThread);
    // A thread that cannot drain (NATS gone) is stopped after a grace period.
    const timer = setTimeout(() => void worker.terminate(), 5_000);
    await this.#closed;
    clearTimeout(timer);
  }
}

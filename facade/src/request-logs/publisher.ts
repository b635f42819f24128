import type { Logger } from "../../../proto/runtime/logger.ts";
import { SupervisedThread, threadModule } from "../../../proto/runtime/supervised-thread.ts";
import type { RequestLogsConfig } from "../config.ts";
import { requestLogsDropped, requestLogsPublished, requestLogThreadRestarts } from "../metrics.ts";
import { LogBuffer } from "./log-buffer.ts";
import type { FromPublisherThread, PublisherThreadData, ToPublisherThread } from "./publisher-thread.ts";
import type { CapturedRequest } from "./recorder.ts";
import { isPlainObject } from "./redact.ts";

/** What of a captured request crosses to the thread: bodies that are bytes or JSON values (a stream is not logged). */
function portable(captured: CapturedRequest): CapturedRequest {
  const body = captured.responseBody;
  if (body === null || typeof body !== "object" || Buffer.isBuffer(body) || Array.isArray(body) || isPlainObject(body)) return captured;
  return { ...captured, responseBody: undefined };
}

/**
 * The recorder's NATS side: one plain (core NATS) publish per batch, never awaited. Redaction,
 * serialisation and the publish run on a thread of their own (publisher-thread.ts); this side
 * only hands it each batch. While NATS is unreachable a batch is dropped and counted rather than
 * queued, and at most REQUEST_LOG_BUFFER records are ever on their way to the thread, so memory
 * stays bounded and no request ever waits on NATS. A thread that has not connected yet (the
 * facade's first requests come while it starts) keeps what it is handed until it has.
 */
export class RequestLogPublisher {
  readonly buffer: LogBuffer<CapturedRequest>;
  readonly #config: RequestLogsConfig;
  readonly #log: Logger;
  readonly #thread: SupervisedThread<ToPublisherThread, FromPublisherThread>;
  /**
   * The thread's NATS connection. "starting": a thread that has not connected yet keeps what it is
   * handed; "down" (its connection went, or no thread runs): batches are dropped, not handed over.
   */
  #nats: "starting" | "up" | "down" = "starting";
  /** Records handed to the thread and not yet reported done. */
  #inFlight = 0;

  constructor(config: RequestLogsConfig, natsUrl: string, log: Logger) {
    this.#config = config;
    this.#log = log;
    this.buffer = new LogBuffer<CapturedRequest>(
      { batchSize: config.handoffBatch, flushMs: config.handoffMs, maxEntries: config.maxEntries },
      {
        flush: (batch) => this.#hand(batch),
        dropped: (count) => requestLogsDropped.inc({ reason: "buffer_full" }, count),
      },
    );
    this.#thread = new SupervisedThread({
      module: threadModule(import.meta.url, "publisher-thread"),
      name: "request-log-publisher",
      workerData: { config, natsUrl } satisfies PublisherThreadData,
      heapMb: config.threadHeapMb,
      onMessage: (message) => this.#heard(message),
      onError: (err) => this.#log.error({ err }, "request logs: the publisher thread failed; logs are dropped until it is back"),
      onExit: () => (this.#nats = "down"),
      onRespawn: () => requestLogThreadRestarts.inc(),
      // What the thread that ended had not reported is gone with it; a new one keeps what comes while it connects.
      onStart: () => {
        this.#inFlight = 0;
        this.#nats = "starting";
      },
    });
  }

  /** Whether batches are being sent (connected and not reconnecting). */
  get up(): boolean {
    return this.#nats === "up";
  }

  #heard(message: FromPublisherThread): void {
    if (message.type === "up") this.#nats = message.up ? "up" : "down";
    else if (message.type === "log") this.#log.warn({ err: message.err }, message.msg);
    else if (message.type === "done") {
      this.#inFlight -= message.taken;
      if (message.published > 0) requestLogsPublished.inc(message.published);
      for (const [reason, count] of Object.entries(message.dropped)) requestLogsDropped.inc({ reason }, count);
    }
  }

  #hand(batch: CapturedRequest[]): void {
    if (this.#nats === "down") {
      requestLogsDropped.inc({ reason: "nats_down" }, batch.length);
      return;
    }
    if (this.#inFlight + batch.length > this.#config.maxEntries) {
      // The thread is behind: what it has not taken yet already fills the buffer's bound.
      requestLogsDropped.inc({ reason: "buffer_full" }, batch.length);
      return;
    }
    const send = (entries: CapturedRequest[]) => {
      this.#thread.post({ type: "batch", batch: entries });
      this.#inFlight += entries.length;
    };
    const entries = batch.map(portable);
    try {
      send(entries);
    } catch {
      // Something in one body cannot be copied to the thread (a function in a route's answer, say):
      // the others still go, that one is dropped and counted.
      for (const entry of entries) {
        try {
          send([entry]);
        } catch {
          requestLogsDropped.inc({ reason: "unrecordable" });
        }
      }
    }
  }

  async close(): Promise<void> {
    this.buffer.flush();
    await this.#thread.close({ type: "close" });
  }
}

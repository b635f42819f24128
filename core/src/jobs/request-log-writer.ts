import { SupervisedThread, threadModule, type ThreadClosed } from "../../../proto/runtime/supervised-thread.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { requestLogRecords, requestLogThreadRestarts } from "../metrics.ts";

/** What the writer's thread needs: where batches come from and where they go. */
export interface WriterThreadData {
  natsUrl: string;
  subject: string;
  databaseUrl: string;
  connectTimeoutMs: number;
  /** Its nice value (RequestLogPolicy.threadNice). */
  nice: number;
}

export type ToWriterThread = { type: "close" };
export type FromWriterThread =
  | { type: "records"; outcome: "written" | "unknown_key" | "failed" | "malformed"; count: number }
  | { type: "log"; level: "warn" | "error"; msg: string; err: string }
  | { type: "subscribed" }
  | ThreadClosed;

/**
 * The core's side of the request logs: a plain NATS subscription in a queue group, so each batch
 * a facade publishes is written by exactly one of the cores, with one statement. What arrives is
 * checked against the contract (proto/request-log.ts) first: anything on the subject that is not a
 * well-formed batch is dropped and counted, never written. The work runs on a thread of its own
 * (request-log-thread.ts); this side keeps the metrics and the log.
 */
export class RequestLogWriter {
  readonly #deps: CoreDeps;
  #thread: SupervisedThread<ToWriterThread, FromWriterThread> | undefined;

  constructor(deps: CoreDeps) {
    this.#deps = deps;
  }

  /** Starts the thread; resolves once it is subscribed (or rejects if it could not start). */
  start(natsUrl: string, subject: string): Promise<void> {
    const { config, log } = this.#deps;
    const workerData: WriterThreadData = {
      natsUrl,
      subject,
      databaseUrl: config.databaseUrl,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      nice: config.requestLogs.threadNice,
    };
    return new Promise((subscribed, failed) => {
      this.#thread = new SupervisedThread({
        module: threadModule(import.meta.url, "request-log-thread"),
        name: "request-log-writer",
        workerData,
        heapMb: config.requestLogs.threadHeapMb,
        onMessage: (message) => {
          if (message.type === "records") requestLogRecords.inc({ outcome: message.outcome }, message.count);
          else if (message.type === "log") log[message.level]({ err: message.err }, message.msg);
          else if (message.type === "subscribed") subscribed();
        },
        onRespawn: () => requestLogThreadRestarts.inc(),
        onError: (err) => {
          log.error({ err }, "request logs: the writer thread failed; logs are dropped until it is back");
          failed(err);
        },
      });
    });
  }

  async close(): Promise<void> {
    await this.#thread?.close({ type: "close" });
  }
}

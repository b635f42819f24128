import { connect, type NatsConnection, type Subscription } from "@nats-io/transport-node";
import { natsServers } from "../../../proto/event-stream.ts";
import { REQUEST_LOG_QUEUE, requestLogBatch } from "../../../proto/request-log.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { recordRequestLogs } from "../domain/request-logs.ts";
import { requestLogRecords } from "../metrics.ts";

/**
 * The core's side of the request logs: a plain NATS subscription in a queue group, so each batch
 * a facade publishes is written by exactly one of the cores, with one statement. What arrives is
 * checked against the contract (proto/request-log.ts) first: anything on the subject that is not a
 * well-formed batch is dropped and counted, never written.
 */
export class RequestLogWriter {
  readonly #deps: CoreDeps;
  #nc: NatsConnection | undefined;
  #sub: Subscription | undefined;
  #done: Promise<void> | undefined;

  constructor(deps: CoreDeps) {
    this.#deps = deps;
  }

  get connected(): boolean {
    return this.#nc !== undefined && !this.#nc.isClosed();
  }

  async start(natsUrl: string, subject: string): Promise<void> {
    this.#nc = await connect({ servers: natsServers(natsUrl), name: "paytami-core-request-logs", maxReconnectAttempts: -1, waitOnFirstConnect: true });
    this.#sub = this.#nc.subscribe(subject, { queue: REQUEST_LOG_QUEUE });
    this.#done = this.#consume(this.#sub);
  }

  async #consume(sub: Subscription): Promise<void> {
    // One batch at a time per core: the subscription's buffer holds the next ones meanwhile.
    for await (const message of sub) {
      let records;
      try {
        const parsed = requestLogBatch.safeParse(message.json());
        if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "not a batch");
        records = parsed.data.records;
      } catch (err) {
        requestLogRecords.inc({ outcome: "malformed" });
        this.#deps.log.warn({ err: String(err) }, "request logs: a message on the subject is not a batch; dropped");
        continue;
      }
      try {
        const written = await recordRequestLogs(db(this.#deps.orm.em.fork()), records);
        requestLogRecords.inc({ outcome: "written" }, written);
        if (written < records.length) requestLogRecords.inc({ outcome: "unknown_key" }, records.length - written);
      } catch (err) {
        // Logs may be lost (issue 17); a database hiccup must not stop the subscription.
        requestLogRecords.inc({ outcome: "failed" }, records.length);
        this.#deps.log.error({ err }, "request logs: a batch could not be written; dropped");
      }
    }
  }

  async close(): Promise<void> {
    // Drain: stop taking batches, finish the one in hand.
    await this.#nc?.drain().catch(() => undefined);
    await this.#done;
  }
}

import { connect, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "../../../proto/runtime/logger.ts";
import { natsServers } from "../../../proto/event-stream.ts";
import type { RequestLogsConfig } from "../config.ts";
import { requestLogsDropped, requestLogsPublished } from "../metrics.ts";
import { LogBuffer } from "./log-buffer.ts";
import { toRecord, type CapturedRequest } from "./recorder.ts";

/** Room left in a NATS message for the `{"records":[…]}` around the records. */
const ENVELOPE_BYTES = 64;

/**
 * The recorder's NATS side: one plain (core NATS) publish per batch, never awaited. While NATS is
 * unreachable a batch is dropped and counted rather than queued in the client, so memory stays
 * bounded and no request ever waits on NATS.
 */
export class RequestLogPublisher {
  readonly buffer: LogBuffer<CapturedRequest>;
  readonly #config: RequestLogsConfig;
  readonly #log: Logger;
  #nc: NatsConnection | undefined;
  #up = false;

  constructor(config: RequestLogsConfig, natsUrl: string, log: Logger) {
    this.#config = config;
    this.#log = log;
    this.buffer = new LogBuffer<CapturedRequest>(config, {
      flush: (batch) => this.#publish(batch),
      dropped: (count) => requestLogsDropped.inc({ reason: "buffer_full" }, count),
    });
    void this.#connect(natsUrl);
  }

  /** Whether batches are being sent (connected and not reconnecting). */
  get up(): boolean {
    return this.#up;
  }

  async #connect(natsUrl: string): Promise<void> {
    try {
      const nc = await connect({ servers: natsServers(natsUrl), name: "paytami-facade-request-logs", maxReconnectAttempts: -1, waitOnFirstConnect: true });
      this.#nc = nc;
      this.#up = true;
      for await (const status of nc.status()) {
        if (status.type === "disconnect" || status.type === "reconnecting") this.#up = false;
        else if (status.type === "reconnect") this.#up = true;
      }
    } catch (err) {
      this.#log.error({ err }, "request logs: NATS connection failed; logs are dropped");
    }
  }

  #publish(batch: CapturedRequest[]): void {
    const nc = this.#nc;
    if (!nc || !this.#up || nc.isClosed()) {
      requestLogsDropped.inc({ reason: "nats_down" }, batch.length);
      return;
    }
    // Split so no message passes the server's max_payload (bodies make records large).
    const limit = (nc.info?.max_payload ?? 1024 * 1024) - ENVELOPE_BYTES;
    let parts: string[] = [];
    let bytes = 0;
    const send = () => {
      if (parts.length === 0) return;
      try {
        nc.publish(this.#config.subject, `{"records":[${parts.join(",")}]}`);
        requestLogsPublished.inc(parts.length);
      } catch (err) {
        requestLogsDropped.inc({ reason: "publish_failed" }, parts.length);
        this.#log.warn({ err }, "request logs: a batch could not be published");
      }
      parts = [];
      bytes = 0;
    };
    for (const captured of batch) {
      let json: string;
      try {
        json = JSON.stringify(toRecord(captured, this.#config.bodyCapBytes));
      } catch (err) {
        // Nothing a client sent may take the facade down: the record is dropped and counted.
        requestLogsDropped.inc({ reason: "unrecordable" });
        this.#log.warn({ err }, "request logs: a request could not be recorded");
        continue;
      }
      const size = Buffer.byteLength(json) + 1;
      if (size > limit) {
        requestLogsDropped.inc({ reason: "too_large" });
        continue;
      }
      if (bytes + size > limit) send();
      parts.push(json);
      bytes += size;
    }
    send();
  }

  async close(): Promise<void> {
    this.buffer.flush();
    await this.#nc?.drain().catch(() => undefined);
  }
}

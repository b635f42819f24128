// Takes events off the durable JetStream consumer and has the core record their deliveries (one per
// subscribed endpoint), acknowledging each message only after that succeeded (DESIGN "Delivery
// model"). Messages are recorded in batches: while one RecordDeliveries call runs, the next batch
// gathers, so a burst costs a few calls and a quiet stream costs one per event.
import { jetstream, type ConsumerMessages, type JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { setTimeout as sleep } from "node:timers/promises";
import type { CoreClient } from "../../proto/core-client.ts";
import { EVENT_STREAM } from "../../proto/event-stream.ts";
import type { Logger } from "../../proto/runtime/logger.ts";
import { ensureEventConsumer } from "./event-consumer.ts";
import { contextOf, failed, linkTo, SpanKind, startSpan, tracingOn, withSpan, type Span } from "../../proto/runtime/spans.ts";

const BATCH = 500;
/** A batch the core could not record is offered again after this long (the core may be restarting). */
const RETRY_MS = 1_000;

/** NATS_STREAM_REPLICAS, and DISPATCHER_PULL_EXPIRES: how long a pull waits before the next is sent. */
export interface IntakeCluster {
  replicas: number;
  pullExpiresMs: number;
}

export class EventIntake {
  readonly #nc: NatsConnection;
  readonly #core: CoreClient;
  readonly #log: Logger;
  readonly #consumer: string;
  /** Called when new deliveries were recorded, so the send loop claims them at once. */
  readonly #onRecorded: () => void;
  #pending: JsMsg[] = [];
  #flushing: Promise<void> | undefined;
  #messages: ConsumerMessages | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;

  readonly #replicas: number;
  readonly #pullExpiresMs: number;

  constructor(
    nc: NatsConnection,
    core: CoreClient,
    log: Logger,
    consumer: string,
    onRecorded: () => void,
    cluster: IntakeCluster = { replicas: 1, pullExpiresMs: 30_000 },
  ) {
    this.#replicas = cluster.replicas;
    this.#pullExpiresMs = cluster.pullExpiresMs;
    this.#nc = nc;
    this.#core = core;
    this.#log = log;
    this.#consumer = consumer;
    this.#onRecorded = onRecorded;
  }

  start(): void {
    this.#running = this.#run();
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        await ensureEventConsumer(this.#nc, this.#consumer, this.#replicas);
        const consumer = await jetstream(this.#nc).consumers.get(EVENT_STREAM, this.#consumer);
        // A pull outlives the server it was sent to only until it expires: after a leader election the
        // next one (and the heartbeats it brings) finds the consumer's new leader.
        this.#messages = await consumer.consume({ max_messages: BATCH, abort_on_missing_resource: true, expires: this.#pullExpiresMs });
        void this.#watch(this.#messages);
        for await (const msg of this.#messages) {
          this.#pending.push(msg);
          this.#flushing ??= this.#flush();
        }
      } catch (err) {
        if (!this.#stopped) this.#log.warn({ err }, "event consumer interrupted; resuming");
      }
      if (!this.#stopped) await sleep(RETRY_MS);
    }
  }

  /**
   * What the client says of its pulls besides messages. Missed heartbeats: the server holding the
   * pull is gone (a NATS node died, the consumer's leader moved); the client's own re-pulls were seen
   * to stall after a leader election, so the consumer is opened again from scratch (the loop above).
   */
  async #watch(messages: ConsumerMessages): Promise<void> {
    for await (const status of messages.status()) {
      if (status.type === "next" || status.type === "heartbeat" || status.type === "debug" || status.type === "discard") continue;
      this.#log.warn({ status: status.type }, "event consumer status");
      if (status.type === "heartbeats_missed") {
        messages.stop();
        return;
      }
    }
  }

  async #flush(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, BATCH);
        const ids = batch.map((msg) => msg.headers?.get("Nats-Msg-Id") || msg.json<{ id: string }>().id);
        const span = this.#recordSpan(batch, ids);
        try {
          const recorded = await withSpan(span, () => this.#core.deliveries.recordDeliveries({ event_ids: ids }));
          span?.end();
          for (const msg of batch) msg.ack();
          // Another deployment's events on a shared stream, or events purged before they were read.
          if (recorded.unknown_event_ids.length > 0) this.#log.debug({ events: recorded.unknown_event_ids.length }, "events unknown to this core acknowledged");
          if (recorded.created > 0) this.#onRecorded();
        } catch (err) {
          failed(span, err);
          span?.end();
          this.#log.warn({ err, events: ids.length }, "could not record deliveries; the events will be offered again");
          for (const msg of batch) msg.nak(RETRY_MS);
          if (!this.#stopped) await sleep(RETRY_MS);
        }
      }
    } finally {
      this.#flushing = undefined;
    }
  }

  /**
   * Tracing on: the span of one RecordDeliveries call, a consumer span of the NATS hop. For one event
   * it continues the event's trace (the `traceparent` header the relay set); a batch of several
   * links to each of theirs instead, as one span cannot have several parents.
   */
  #recordSpan(batch: JsMsg[], ids: string[]): Span | undefined {
    if (!tracingOn()) return undefined;
    const traceparents = batch.map((msg) => msg.headers?.get("traceparent"));
    return startSpan("paytami.events record deliveries", {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "nats",
        "messaging.batch.message_count": batch.length,
        ...(ids.length === 1 ? { "messaging.message.id": ids[0] } : {}),
      },
      ...(batch.length === 1 ? { parent: contextOf(traceparents[0]) } : { parent: contextOf(null), links: traceparents.flatMap((t) => linkTo(t)) }),
    });
  }

  /** Stops taking messages; what is being recorded finishes; what was not is handed back to JetStream. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#messages?.close().catch(() => undefined);
    await this.#flushing;
    for (const msg of this.#pending.splice(0)) msg.nak();
    await this.#running;
  }
}

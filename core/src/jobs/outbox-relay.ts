import { jetstream, jetstreamManager, type JetStreamClient } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { ensureEventStream, eventSubject } from "../../../proto/event-stream.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { claimLeased, completeLeased, type LeasedQueue, type LeasePolicy } from "./claim.ts";

/** Outbox rows not yet published, in the order they were written. */
export const unpublishedEvents: LeasedQueue<"outbox_events", "id", { id: string; mode: string; type: string; envelope: unknown }> = {
  job: "outbox_relay",
  table: "outbox_events",
  key: "id",
  due: (rows) => rows.select(["id", "mode", "type", "envelope"]).where("published_at", "is", null).orderBy("seq"),
};

/**
 * Moves committed outbox rows to JetStream. Rows are claimed with a lease
 * (claim.ts), published outside any transaction (the event id is the
 * JetStream msgID, so a re-publish after a crash or an expired lease is
 * de-duplicated), then marked published.
 */
export class OutboxRelay {
  #deps: CoreDeps;
  #url: string;
  #nc: NatsConnection | undefined;
  /** One connection attempt shared by every caller (start() and the first relay pass may race). */
  #js: Promise<JetStreamClient> | undefined;

  constructor(deps: CoreDeps, natsUrl: string) {
    this.#deps = deps;
    this.#url = natsUrl;
  }

  get connected(): boolean {
    return this.#nc !== undefined && !this.#nc.isClosed();
  }

  /** Connects (waiting for NATS if it is not up yet) and ensures the event stream exists. */
  async start(): Promise<void> {
    await this.#client();
  }

  #client(): Promise<JetStreamClient> {
    this.#js ??= this.#connect().catch((error: unknown) => {
      this.#js = undefined;
      throw error;
    });
    return this.#js;
  }

  // The connection reconnects forever on its own (maxReconnectAttempts -1), so it is made once.
  async #connect(): Promise<JetStreamClient> {
    this.#nc = await connect({ servers: this.#url, name: "paytami-core-relay", maxReconnectAttempts: -1, waitOnFirstConnect: true });
    await ensureEventStream(await jetstreamManager(this.#nc));
    return jetstream(this.#nc);
  }

  /** One relay pass; returns how many events were published. */
  async relayOnce(policy: LeasePolicy): Promise<number> {
    const events = await claimLeased(this.#deps, unpublishedEvents, policy);
    if (events.length === 0) return 0;
    const published: string[] = [];
    try {
      const js = await this.#client();
      for (const event of events) {
        await js.publish(eventSubject(event.mode, event.type), JSON.stringify(event.envelope), { msgID: event.id });
        published.push(event.id);
      }
    } finally {
      // What did go out is marked even when a later publish failed; the rest waits for its lease to run out.
      await completeLeased(this.#deps, unpublishedEvents, published, { published_at: this.#deps.now() }, "published");
    }
    return published.length;
  }

  async close(): Promise<void> {
    await this.#nc?.drain().catch(() => undefined);
  }
}

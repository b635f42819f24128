import { jetstream, jetstreamManager, type JetStreamClient } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { sql } from "kysely";
import { ensureEventStream, eventSubject } from "../../../proto/event-stream.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { jobRuns } from "../metrics.ts";

const CLAIM_MS = 30_000;

interface ClaimedEvent {
  id: string;
  mode: string;
  type: string;
  envelope: unknown;
}

/**
 * Moves committed outbox rows to JetStream. Rows are claimed with a lease in a
 * short transaction, published outside it (the event id is the JetStream
 * msgID, so a re-publish after a crash is de-duplicated), then marked.
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

  async #claim(batch: number): Promise<ClaimedEvent[]> {
    const now = this.#deps.now();
    const result = await sql<ClaimedEvent>`
      update outbox_events set claimed_until = ${new Date(now.getTime() + CLAIM_MS)}
      where seq in (
        select seq from outbox_events
        where published_at is null and (claimed_until is null or claimed_until < ${now})
        order by seq limit ${batch}
        for update skip locked)
      returning id, mode, type, envelope`.execute(db(this.#deps.orm.em.fork()));
    return result.rows;
  }

  /** One relay pass; returns how many events were published. */
  async relayOnce(batch = 200): Promise<number> {
    const events = await this.#claim(batch);
    if (events.length === 0) return 0;
    const js = await this.#client();
    const published: string[] = [];
    for (const event of events) {
      await js.publish(eventSubject(event.mode, event.type), JSON.stringify(event.envelope), { msgID: event.id });
      published.push(event.id);
    }
    await db(this.#deps.orm.em.fork())
      .updateTable("outbox_events")
      .set({ published_at: this.#deps.now(), claimed_until: null })
      .where("id", "in", published)
      .execute();
    jobRuns.inc({ job: "outbox_relay", outcome: "published" }, published.length);
    return published.length;
  }

  async close(): Promise<void> {
    await this.#nc?.drain().catch(() => undefined);
  }
}

import { jetstream, jetstreamManager, type JetStreamClient } from "@nats-io/jetstream";
import { connect, headers, type NatsConnection } from "@nats-io/transport-node";
import { sql } from "kysely";
import type pg from "pg";
import { ensureEventStream, eventSubject, natsConnectionOptions } from "../../../proto/event-stream.ts";
import { db } from "../db/orm.ts";
import { newDatabaseClient } from "../db/primary.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { OUTBOX_CHANNEL, storedEnvelope } from "../domain/outbox.ts";
import { completeLeased, inIndexOrder, leaseStatement, type LeasedQueue, type LeasePolicy } from "./claim.ts";
import { contextOf, currentTraceparent, failed, SpanKind, startSpan, withSpan } from "../../../proto/runtime/spans.ts";

/** An outbox row the relay publishes, its envelope as stored (outbox.ts `storedEnvelope`). */
type UnpublishedEvent = { seq: string; id: string; mode: string; type: string; envelope: string; traceparent: string | null };
/** A leased queue row with its event's columns, all null when the event is gone. */
type ClaimedRow = UnpublishedEvent | { seq: string; id: null; mode: null; type: null; envelope: null; traceparent: null };

/** The relay's queue (outbox_pending): events not yet published, in the order they were written. */
export const unpublishedEvents: LeasedQueue<"outbox_pending", "seq", { seq: string }> = {
  job: "outbox_relay",
  table: "outbox_pending",
  key: "seq",
  keyType: "bigint",
  due: (rows) => rows.select("seq").orderBy("seq"),
};

/**
 * Leases up to `policy.batch` queued events and reads what the relay publishes of each, in one
 * statement (the lease walks outbox_pending's primary key in order: claim.ts `inIndexOrder`).
 */
export function claimUnpublished(deps: CoreDeps, policy: LeasePolicy): Promise<ClaimedRow[]> {
  return inIndexOrder(deps.orm.em.fork(), async (tx) => {
    const lease = leaseStatement(deps, unpublishedEvents, policy, tx);
    const { rows } = await sql<ClaimedRow>`
      with leased as (${lease})
      select leased.seq, o.id, o.mode, o.type, ${storedEnvelope("o.envelope")} as envelope, o.traceparent
      from leased left join outbox_events o on o.seq = leased.seq
      order by leased.seq`.execute(db(tx));
    return rows;
  });
}

/**
 * Moves committed outbox rows to JetStream. Their queue rows are claimed with
 * a lease (claim.ts), the events published outside any transaction (the event
 * id is the JetStream msgID, so a re-publish after a crash or an expired lease
 * is de-duplicated), then their queue rows deleted.
 */
export class OutboxRelay {
  #deps: CoreDeps;
  #url: string;
  #nc: NatsConnection | undefined;
  /** One connection attempt shared by every caller (start() and the first relay pass may race). */
  #js: Promise<JetStreamClient> | undefined;
  #listener: pg.Client | undefined;
  #closed = false;

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
    this.#nc = await connect(natsConnectionOptions(this.#url, "paytami-core-relay"));
    await ensureEventStream(await jetstreamManager(this.#nc), this.#deps.config.natsStreamReplicas);
    return jetstream(this.#nc);
  }

  /** One relay pass; returns how many events were published. */
  async relayOnce(policy: LeasePolicy): Promise<number> {
    const claimed = await claimUnpublished(this.#deps, policy);
    if (claimed.length === 0) return 0;
    // A queue row whose event is gone (nothing purges a queued event; a hand-made delete could)
    // has nothing left to publish: it leaves the queue instead of coming back at every lease.
    const events = claimed.filter((row): row is UnpublishedEvent => row.id !== null);
    const gone = claimed.filter((row) => row.id === null).map((row) => row.seq);
    await completeLeased(this.#deps, unpublishedEvents, gone, "delete", "gone");
    if (events.length === 0) return 0;
    const published: string[] = [];
    try {
      const js = await this.#client();
      // Sent in order on one connection and acknowledged together: one round trip per batch, not per event.
      const acks = await Promise.allSettled(events.map((event) => this.#publish(js, event)));
      acks.forEach((ack, i) => ack.status === "fulfilled" && published.push(events[i]!.seq));
      const failed = acks.find((ack) => ack.status === "rejected");
      if (failed) throw failed.reason;
    } finally {
      // What did go out leaves the queue even when a later publish failed.
      await completeLeased(this.#deps, unpublishedEvents, published, "delete", "published");
      // What NATS refused (no stream leader during an election, a server gone) is due again at the
      // next pass instead of after its lease: delivery resumes as soon as the cluster does.
      const sent = new Set(published);
      const refused = events.filter((event) => !sent.has(event.seq)).map((event) => event.seq);
      await completeLeased(this.#deps, unpublishedEvents, refused, {}, "refused");
    }
    return published.length;
  }

  /**
   * Publishes one event. Tracing on: a producer span continuing the trace of the request that raised
   * it (the traceparent stored with the row), whose own traceparent travels in the message headers.
   */
  async #publish(js: JetStreamClient, event: UnpublishedEvent) {
    const subject = eventSubject(event.mode, event.type);
    const span = startSpan(`${subject} publish`, {
      kind: SpanKind.PRODUCER,
      parent: contextOf(event.traceparent),
      attributes: { "messaging.system": "nats", "messaging.destination.name": subject, "messaging.message.id": event.id },
    });
    const h = span ? headers() : undefined;
    if (span)
      h!.set(
        "traceparent",
        withSpan(span, () => currentTraceparent()!),
      );
    try {
      return await js.publish(subject, event.envelope, { msgID: event.id, ...(h ? { headers: h } : {}) });
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span?.end();
    }
  }

  /**
   * Calls `onCommit` whenever a transaction that wrote outbox rows commits (any core: PostgreSQL
   * NOTIFY), so events leave within milliseconds instead of at the next poll. The poll stays as the
   * fallback: while this connection is down (it reconnects after a second) nothing is lost, only later.
   */
  listen(onCommit: () => void): void {
    if (this.#closed) return;
    const { databaseUrl, dbConnectTimeoutMs } = this.#deps.config;
    // On the primary (DATABASE_URL with several hosts): after a failover it reconnects to the new one.
    const client = newDatabaseClient(databaseUrl, dbConnectTimeoutMs, { application_name: "paytami-core-relay" });
    this.#listener = client;
    let retried = false;
    const retry = (err?: unknown) => {
      if (retried) return;
      retried = true;
      if (err && !this.#closed) this.#deps.log.warn({ err }, "outbox notifications interrupted; polling until reconnected");
      void client.end().catch(() => undefined);
      if (!this.#closed) setTimeout(() => this.listen(onCommit), 1_000).unref();
    };
    client.on("notification", onCommit);
    client.on("error", retry);
    client.on("end", () => retry());
    client
      .connect()
      .then(() => client.query(`LISTEN ${OUTBOX_CHANNEL}`))
      .then(onCommit, retry);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#listener?.end().catch(() => undefined);
    await this.#nc?.drain().catch(() => undefined);
  }
}

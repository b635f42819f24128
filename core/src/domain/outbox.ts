import { sql } from "kysely";
import { db, type EntityManager } from "../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import { newId } from "./ids.ts";
import { currentTraceparent } from "../../../proto/runtime/spans.ts";

/** The PostgreSQL NOTIFY channel a committed outbox insert signals on (outbox-relay.ts listens). */
export const OUTBOX_CHANNEL = "paytami_outbox";

export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

/** An event an operation raised; it leaves the core only once recorded in the outbox. */
export interface RaisedEvent {
  merchantId: string;
  mode: string;
  type: string;
  data: unknown;
  at: Date;
  /** The event id, when the operation must know it (paytami trigger prints it); else one is made. */
  id?: string;
}

/** Outbox rows as parallel arrays: one statement shape for any number of events (so it can be compiled once). */
export type OutboxValues = {
  event_ids: string[];
  event_merchant_ids: string[];
  event_modes: string[];
  event_types: string[];
  /** Each envelope as JSON text, stored verbatim (the column is json, so the key order stays). */
  event_envelopes: string[];
  event_created_at: Date[];
  /**
   * The W3C traceparent of the operation that raised each event (null with tracing off): the relay's
   * publish, the NATS hop, the delivery and its attempts continue that request's trace.
   */
  event_traceparents: Array<string | null>;
};

/**
 * An outbox row's envelope as the text it was stored with (json keeps it verbatim): what the relay
 * publishes and every webhook attempt sends (webhook-deliveries.ts `eventBody`), so the bytes are
 * the same everywhere and nothing parses an envelope only to serialize it again.
 */
export const storedEnvelope = (column: "envelope" | "o.envelope" = "envelope") => sql<string>`${sql.ref(column)}::text`;

/** The envelopes of `events` (new ids where they have none) and the values `outboxWrites` binds. */
export function outboxValues(events: readonly RaisedEvent[]): { envelopes: EventEnvelope[]; values: OutboxValues } {
  const envelopes = events.map((event): EventEnvelope => ({
    id: event.id ?? newId("evt"),
    type: event.type,
    created_at: event.at.toISOString(),
    data: event.data,
  }));
  const traceparent = currentTraceparent();
  return {
    envelopes,
    values: {
      event_ids: envelopes.map((e) => e.id),
      event_merchant_ids: events.map((e) => e.merchantId),
      event_modes: events.map((e) => e.mode),
      event_types: events.map((e) => e.type),
      event_envelopes: envelopes.map((e) => JSON.stringify(e)),
      event_created_at: events.map((e) => e.at),
      event_traceparents: events.map(() => traceparent),
    },
  };
}

/**
 * The outbox insert, as a CTE body for a larger statement; its companions are `outboxQueued` (the
 * next CTE: the relay's queue rows) and `outboxNotify` (the statement's final select). Rows go in in
 * the events' order, so seq (the relay's order) follows it. Only passes `v` through, so it can be
 * part of a PreparedStatement.
 */
export function outboxInsert(v: OutboxValues) {
  // Raw: rows from one bound array per column, in order (`unnest(…) with ordinality`), which the builder cannot write.
  // Parenthesised here: Kysely does not wrap a raw CTE body.
  return sql<{ seq: string }>`(insert into outbox_events (id, merchant_id, mode, type, envelope, created_at, traceparent)
    select e.id, e.merchant_id, e.mode, e.type, e.envelope::json, e.created_at, e.traceparent
    from unnest(${v.event_ids}::text[], ${v.event_merchant_ids}::text[], ${v.event_modes}::text[], ${v.event_types}::text[],
      ${v.event_envelopes}::text[], ${v.event_created_at}::timestamptz[], ${v.event_traceparents}::text[])
      with ordinality as e(id, merchant_id, mode, type, envelope, created_at, traceparent, n)
    order by e.n
    returning outbox_events.seq)`;
}

/**
 * The relay's queue rows (outbox_pending) for the events the CTE named `written` inserted (its
 * body `outboxInsert`): a CTE body too, since PostgreSQL allows a data-modifying statement only at
 * a statement's top level, so the two inserts are two CTEs of one statement.
 */
export const outboxQueued = (written: string) => sql<{ seq: string }>`(insert into outbox_pending (seq) select seq from ${sql.table(written)} returning seq)`;

/**
 * Delivered at commit (never for a rollback): wakes the relays LISTENing instead of their next poll.
 * A typed fragment: its channel and payload are inline SQL (a PreparedStatement binds only its values).
 */
export const outboxNotify = sql<string>`pg_notify(${sql.lit(OUTBOX_CHANNEL)}, '')`;

/**
 * Records events in the same transaction as the change they describe; the
 * outbox relay publishes them afterwards, so a crash can never publish an
 * event for a change that did not commit, nor lose one that did. One
 * statement: the rows and the notification.
 */
export async function enqueueEvents(tx: EntityManager, events: readonly RaisedEvent[]): Promise<EventEnvelope[]> {
  if (events.length === 0) return [];
  const { envelopes, values } = outboxValues(events);
  await ENQUEUE.run(db(tx), values);
  return envelopes;
}

const ENQUEUE = new PreparedStatement((v: OutboxValues) =>
  statementBuilder
    .with("written", () => outboxInsert(v))
    .with("queued", () => outboxQueued("written"))
    .selectNoFrom(outboxNotify.as("notified")),
);

// The NATS JetStream contract between the core's outbox relay (publisher) and
// the dispatcher (consumer).
import type { JetStreamManager } from "@nats-io/jetstream";
import type { NodeConnectionOptions } from "@nats-io/transport-node";

export const EVENT_STREAM = "PAYTAMI_EVENTS";
export const EVENT_SUBJECT_PREFIX = "paytami.events";
export const DISPATCHER_CONSUMER = "dispatcher";

/** NATS_URL may list several servers of a cluster, comma-separated (DESIGN §7); the client tries them all. */
function natsServers(natsUrl: string): string[] {
  return natsUrl
    .split(",")
    .map((server) => server.trim())
    .filter(Boolean);
}

/**
 * How each long-lived connection of a Paytami process (the relay, the dispatcher, the request-log
 * threads) connects to NATS_URL: every server listed, reconnecting for as long as the process runs,
 * waiting for the first connection. Without the client's "async traces": by default it builds an
 * Error (a stack trace) when a request starts and another for its timeout, only to say where a
 * request that failed was made; a JetStream publish is a request, so the outbox relay paid that per
 * event (~15 µs of the core's CPU per refund, in a CPU profile). Our own log lines say where.
 */
export function natsConnectionOptions(natsUrl: string, name: string): NodeConnectionOptions {
  return { servers: natsServers(natsUrl), name, maxReconnectAttempts: -1, waitOnFirstConnect: true, noAsyncTraces: true };
}

/** e.g. paytami.events.test.payment.succeeded */
export function eventSubject(mode: string, type: string): string {
  return `${EVENT_SUBJECT_PREFIX}.${mode}.${type}`;
}

const NANOS_PER_MS = 1_000_000;

/**
 * How long JetStream keeps an event. The stream is only the transport: the dispatcher records the
 * deliveries of an event within moments of its publication and acks it, and the core keeps every
 * event for EVENT_RETENTION (30 days) in its own store (GET /v1/events). A week covers a dispatcher
 * that is down for days without letting the stream grow without bound.
 */
export const EVENT_STREAM_MAX_AGE_MS = 7 * 24 * 3_600_000;

/** Stream settings both sides ensure; the publish msgID (the event id) de-duplicates relay retries. */
const EVENT_STREAM_CONFIG = {
  name: EVENT_STREAM,
  subjects: [`${EVENT_SUBJECT_PREFIX}.>`],
  // 2 minutes in nanoseconds.
  duplicate_window: 120_000 * NANOS_PER_MS,
  max_age: EVENT_STREAM_MAX_AGE_MS * NANOS_PER_MS,
} as const;

/**
 * Creates the event stream unless it exists, or brings an existing one to these settings (a stream
 * made before max_age was set keeps its old config until updated); both sides call it, whichever
 * starts first. `replicas` is NATS_STREAM_REPLICAS: 3 in a three-node cluster, so losing a server
 * loses no event (JetStream raises or lowers an existing stream's replicas in place).
 */
export async function ensureEventStream(jsm: JetStreamManager, replicas = 1): Promise<void> {
  const info = await jsm.streams.info(EVENT_STREAM).catch(() => undefined);
  if (!info) {
    await jsm.streams.add({ ...EVENT_STREAM_CONFIG, subjects: [...EVENT_STREAM_CONFIG.subjects], num_replicas: replicas }).catch(async (error: unknown) => {
      // Another process created it in the meantime: fine, as long as it is there now.
      if (!(await jsm.streams.info(EVENT_STREAM).catch(() => undefined))) throw error;
    });
    return;
  }
  if (
    info.config.max_age !== EVENT_STREAM_CONFIG.max_age ||
    info.config.duplicate_window !== EVENT_STREAM_CONFIG.duplicate_window ||
    info.config.num_replicas !== replicas
  ) {
    await jsm.streams.update(EVENT_STREAM, {
      ...info.config,
      max_age: EVENT_STREAM_CONFIG.max_age,
      duplicate_window: EVENT_STREAM_CONFIG.duplicate_window,
      num_replicas: replicas,
    });
  }
}

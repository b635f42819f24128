// The NATS JetStream contract between the core's outbox relay (publisher) and
// the dispatcher (consumer).
import type { JetStreamManager } from "@nats-io/jetstream";

export const EVENT_STREAM = "PAYTAMI_EVENTS";
export const EVENT_SUBJECT_PREFIX = "paytami.events";
export const DISPATCHER_CONSUMER = "dispatcher";

/** e.g. paytami.events.test.payment.succeeded */
export function eventSubject(mode: string, type: string): string {
  return `${EVENT_SUBJECT_PREFIX}.${mode}.${type}`;
}

/** Stream settings both sides ensure; the publish msgID (the event id) de-duplicates relay retries. */
const EVENT_STREAM_CONFIG = {
  name: EVENT_STREAM,
  subjects: [`${EVENT_SUBJECT_PREFIX}.>`],
  // 2 minutes in nanoseconds.
  duplicate_window: 120_000_000_000,
} as const;

/** Creates the event stream unless it exists; both sides call it, whichever starts first. */
export async function ensureEventStream(jsm: JetStreamManager): Promise<void> {
  await jsm.streams.info(EVENT_STREAM).catch(() => jsm.streams.add({ ...EVENT_STREAM_CONFIG, subjects: [...EVENT_STREAM_CONFIG.subjects] }));
}

import { AckPolicy, DeliverPolicy, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { DISPATCHER_CONSUMER, EVENT_STREAM, ensureEventStream } from "../../proto/event-stream.ts";

/**
 * Ensures the event stream and the dispatcher's durable pull consumer exist.
 * Every dispatcher instance shares the one durable consumer, so each event is
 * handed to one instance at a time and is redelivered until acknowledged.
 */
export async function ensureEventConsumer(nc: NatsConnection): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  await ensureEventStream(jsm);
  await jsm.consumers.info(EVENT_STREAM, DISPATCHER_CONSUMER).catch(() =>
    jsm.consumers.add(EVENT_STREAM, {
      durable_name: DISPATCHER_CONSUMER,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: 60_000_000_000,
      max_ack_pending: 1_000,
    }));
  return jsm;
}

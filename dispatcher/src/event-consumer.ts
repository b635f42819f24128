import { AckPolicy, DeliverPolicy, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { EVENT_STREAM, ensureEventStream } from "../../proto/event-stream.ts";

/**
 * Ensures the event stream and the dispatcher's durable pull consumer exist.
 * Every dispatcher instance shares the one durable consumer, so each event is
 * handed to one instance at a time and is redelivered until acknowledged.
 * Events are acknowledged as soon as their deliveries are recorded in the core,
 * so the consumer never holds a message for the length of a retry schedule.
 */
export async function ensureEventConsumer(nc: NatsConnection, consumer: string, replicas: number): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  await ensureEventStream(jsm, replicas);
  await jsm.consumers.info(EVENT_STREAM, consumer).catch(() =>
    jsm.consumers.add(EVENT_STREAM, {
      durable_name: consumer,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: 60_000_000_000,
      max_ack_pending: 1_000,
      // As many copies as the stream (NATS_STREAM_REPLICAS): its acks and position survive a server's death.
      num_replicas: replicas,
    }),
  );
  return jsm;
}

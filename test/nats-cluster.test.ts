// DESIGN §7 / issue 19: NATS as a three-node cluster. The core's relay and the dispatcher get every
// server in NATS_URL and NATS_STREAM_REPLICAS=3, so the event stream and the dispatcher's durable
// consumer keep three copies. While payments succeed (each raising payment.succeeded), the server
// leading the stream is killed -9, then started again: every event reaches the merchant's endpoint
// (duplicates only as at-least-once delivery allows: the same event id again), within 30 s of the
// load's end (publishes refused during the election are retried at the relay's next pass).
//
// Why 30 s: nothing is published until a new stream leader is elected, which NATS 2.9's raft takes
// 4-9 s to do (measured here: 5-11 s on a loaded machine); the backlog then drains at whatever rate
// the machine has left. The load is paced so that backlog stays a few hundred events. 30 s is still
// half the consumer's 60 s ack_wait: an event whose delivery was lost and waits for redelivery fails.
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { EVENT_STREAM } from "../proto/event-stream.ts";
import { createOk, useStack } from "./support/expect.ts";
import { startNatsCluster, type NatsCluster } from "../core/src/devstack/nats-cluster.ts";
import type { StackOptions } from "./support/stack.ts";
import { WebhookReceiver, type ReceivedRequest } from "./support/webhook-receiver.ts";

const LOOPS = 8;
/** Each loop's pause between payments: at most LOOPS * 1000 / PACE_MS payments a second, whatever the machine's speed. */
const PACE_MS = 50;
const DELIVERED_WITHIN_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cluster: NatsCluster | undefined;
let receiver: WebhookReceiver | undefined;
const options: StackOptions = {
  dispatcher: true,
  env: { NATS_STREAM_REPLICAS: "3", OUTBOX_RELAY_INTERVAL: "100ms", DISPATCHER_POLL_INTERVAL: "100ms" },
};
// Before useStack's beforeAll (registration order): the stack's processes get this cluster.
beforeAll(async () => {
  cluster = await startNatsCluster(3);
  options.env!.NATS_URL = cluster.url;
  receiver = await new WebhookReceiver().start();
}, 60_000);
afterAll(async () => {
  await receiver?.stop();
  await cluster?.stop();
});
const stack = useStack(options);

describe("NATS cluster", () => {
  test("the stream and the dispatcher's consumer have three replicas; killing the stream's leader loses no event", { timeout: 90_000 }, async () => {
    const s = stack();
    const merchant = await s.admin.createMerchant({ name: "Cluster Shop" });
    await s.core.webhooks.createEndpoint({ merchant_id: merchant.merchantId, mode: modeCodec.fromWire("test"), url: receiver!.url, enabled_events: [] });

    const nc = await connect({ servers: cluster!.url.split(",") });
    const jsm = await jetstreamManager(nc);
    const consumerName = (await jsm.consumers.list(EVENT_STREAM).next())[0]?.name;
    expect(consumerName).toBeDefined();
    expect((await jsm.streams.info(EVENT_STREAM)).config.num_replicas).toBe(3);
    expect((await jsm.consumers.info(EVENT_STREAM, consumerName!)).config.num_replicas).toBe(3);

    let stopping = false;
    const failures: string[] = [];
    const loop = async () => {
      while (!stopping) {
        try {
          const id = (await createOk(s.http, merchant.testApiKey, {})).id as string;
          await s.admin.simulate(id, "succeed");
        } catch (error) {
          failures.push(String(error));
        }
        await sleep(PACE_MS);
      }
    };
    const loops = Array.from({ length: LOOPS }, loop);

    await sleep(1_500);
    // The server leading the stream: publishes fail until a new leader is elected.
    const victim = (await jsm.streams.info(EVENT_STREAM)).cluster?.leader;
    expect(cluster!.names).toContain(victim);
    await cluster!.kill(victim!);
    await sleep(2_000);
    await cluster!.restart(victim!);
    await sleep(1_500);
    stopping = true;
    await Promise.all(loops);
    const endedAt = Date.now();
    expect(failures).toEqual([]);

    const events = await s.sql<{ id: string }>("SELECT id FROM outbox_events WHERE merchant_id = $1 AND type = 'payment.succeeded'", [merchant.merchantId]);
    expect(events.length).toBeGreaterThan(20);
    const expected = new Set(events.map((e) => e.id));
    // The receiver's requests only grow: each check reads the new ones into a set.
    const delivered = new Set<string | undefined>();
    let read = 0;
    const allDelivered = (requests: ReceivedRequest[]) => {
      for (; read < requests.length; read++) delivered.add(requests[read]!.eventId);
      return [...expected].every((id) => delivered.has(id));
    };
    await receiver!.waitFor(allDelivered, DELIVERED_WITHIN_MS - (Date.now() - endedAt), "every event at the endpoint");
    // Nothing but these events arrived (a duplicate is one of them again).
    for (const r of receiver!.requests) expect(expected.has(r.eventId!)).toBe(true);
    await nc.close();
  });
});

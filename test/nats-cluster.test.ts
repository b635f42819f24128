// DESIGN §7 / issue 19: NATS as a three-node cluster. The core's relay and the dispatcher get every
// server in NATS_URL and NATS_STREAM_REPLICAS=3, so the event stream and the dispatcher's durable
// consumer keep three copies. Payments succeed at a steady 200 a second (issue 19's rate; each raises
// payment.succeeded) while the server leading the stream is killed -9 and started again two seconds
// later. Every event reaches the merchant's endpoint (duplicates only as at-least-once delivery
// allows: the same event id again) within 30 s of the load's end. Nothing is published until a new
// stream leader is elected (NATS 2.9's raft takes 4-9 s; up to 11 s was seen on a loaded machine),
// and the relay retries what was refused at its next pass. 30 s is half the consumer's 60 s
// ack_wait, so an event whose delivery was lost and waited for redelivery fails it. (The bound was
// 15 s until a CI run on a busy machine needed more for a 1 766-event backlog.) Issue 19 also asks
// for the delivery lag to be back under 1 s within 15 s of the kill: that depends on the machine, so
// test/bench/nats-failover.ts measures it (numbers in core/README.md, "Failover"); not asserted here.
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { EVENT_STREAM } from "../proto/event-stream.ts";
import { useStack } from "./support/expect.ts";
import { failStreamLeaderUnderLoad, RESTART_AFTER_MS } from "./support/stream-leader-failover.ts";
import { startNatsCluster, type NatsCluster } from "../core/src/devstack/nats-cluster.ts";
import type { StackOptions } from "./support/stack.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

const STOP_AFTER_RESTART_MS = 1_500;
const DELIVERED_WITHIN_MS = 30_000;

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

    // The server leading the stream: publishes fail until a new leader is elected.
    const { victim, failures } = await failStreamLeaderUnderLoad(s, merchant.testApiKey, cluster!, RESTART_AFTER_MS + STOP_AFTER_RESTART_MS);
    const endedAt = Date.now();
    expect(cluster!.names).toContain(victim);
    expect(failures).toEqual([]);

    const events = await s.sql<{ id: string }>("SELECT id FROM outbox_events WHERE merchant_id = $1 AND type = 'payment.succeeded'", [merchant.merchantId]);
    expect(events.length).toBeGreaterThan(50);
    const expected = new Set(events.map((e) => e.id));
    await receiver!.waitForEvents(expected, DELIVERED_WITHIN_MS - (Date.now() - endedAt), "every event at the endpoint");
    // Nothing but these events arrived (a duplicate is one of them again).
    for (const r of receiver!.requests) expect(expected.has(r.eventId!)).toBe(true);

    await nc.close();
  });
});

// The relay is woken by PostgreSQL NOTIFY when a transaction that wrote outbox rows commits, not only
// by its poll: with a poll interval of an hour, a captured payment's webhook still arrives.
import { afterAll, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { createOk, useStack } from "./support/expect.ts";
import { eventually } from "./support/eventually.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

const getStack = useStack({ dispatcher: true, env: { OUTBOX_RELAY_INTERVAL: "1h", DISPATCHER_POLL_INTERVAL: "1h" } });

const receiver = new WebhookReceiver();
afterAll(() => receiver.stop());

test("a committed event is relayed and delivered without waiting for the relay's or the dispatcher's poll", async () => {
  const stack = getStack();
  await receiver.start();
  const merchant = await stack.admin.createMerchant({ name: "Notify" });
  await stack.core.webhooks.createEndpoint({ merchant_id: merchant.merchantId, mode: modeCodec.fromWire("test"), url: receiver.url, enabled_events: [] });
  for (let i = 0; i < 3; i++) {
    const paymentId = (await createOk(stack.http, merchant.testApiKey)).id as string;
    await stack.admin.simulate(paymentId, "succeed");
    const arrived = await eventually(
      async () => receiver.requests.find((r) => (JSON.parse(r.body.toString()) as { data: { id?: string } }).data.id === paymentId),
      30_000,
      `the webhook of ${paymentId}`,
    );
    expect(JSON.parse(arrived.body.toString())).toMatchObject({ type: "payment.succeeded" });
  }
  const [row] = await stack.sql<{ n: string }>("select count(*) as n from outbox_pending");
  expect(Number(row!.n)).toBe(0);
});

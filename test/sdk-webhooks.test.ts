// paytami.webhooks.constructEvent on real deliveries: the dispatcher signs and sends events to a real
// receiver on loopback; the SDK accepts what arrived, refuses it changed, with a wrong secret or
// signed too long ago, and accepts either secret's v1= while a secret is being rotated.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { Paytami, PaytamiSignatureError } from "../facade/sdk/src/index.ts";
import { modeCodec } from "../proto/enums.ts";
import { createOk, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
import { WebhookReceiver, type ReceivedRequest } from "./support/webhook-receiver.ts";

const getStack = useStack({
  dispatcher: true,
  env: { DISPATCHER_POLL_INTERVAL: "100ms", OUTBOX_RELAY_INTERVAL: "50ms", WEBHOOK_RETRY_SCHEDULE: "0,300ms" },
});

let receiver: WebhookReceiver;
let merchant: Merchant;
let paytami: Paytami;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterAll(() => receiver?.stop());

/** Each test its own merchant, so only its own endpoints receive its events. */
beforeEach(async () => {
  merchant = await getStack().admin.createMerchant({ name: "Tienda Webhooks SDK" });
  paytami = new Paytami(merchant.testApiKey, { baseUrl: getStack().baseUrl });
});

async function endpoint(): Promise<{ id: string; secret: string }> {
  const created = await getStack().core.webhooks.createEndpoint({
    merchant_id: merchant.merchantId,
    mode: modeCodec.fromWire("test"),
    url: receiver.url,
    enabled_events: [],
  });
  return { id: created.endpoint!.id, secret: created.secret };
}

/** A payment made to succeed, and the delivery of its payment.succeeded as the receiver got it. */
async function delivery(): Promise<ReceivedRequest> {
  const id = (await createOk(getStack().http, merchant.testApiKey)).id as string;
  await getStack().admin.simulate(id, "succeed");
  const of = (r: ReceivedRequest) => (JSON.parse(r.body.toString()) as { data: { id: string } }).data.id === id;
  await receiver.waitFor((requests) => requests.some(of), 30_000, `payment.succeeded for ${id}`);
  return receiver.requests.find(of)!;
}

const signatureOf = (request: ReceivedRequest) => request.headers["service-signature"] as string;

const outcome = (work: Promise<unknown>) =>
  work.then(
    () => "accepted",
    (error: unknown) => (error instanceof PaytamiSignatureError ? "refused" : `threw ${String(error)}`),
  );

test("a real delivery is accepted and gives the event; a changed body, a wrong secret, an old timestamp are refused", async () => {
  const { secret } = await endpoint();
  const request = await delivery();
  const event = await paytami.webhooks.constructEvent(request.body, signatureOf(request), secret);
  expect(event.id).toBe(request.headers["service-event-id"]);
  expect(event.type).toBe("payment.succeeded");
  expect(event).toEqual(JSON.parse(request.body.toString()));
  // The event is the one the API lists.
  expect(await paytami.events.retrieve(event.id)).toEqual(event);
  // The body as a string (a framework that hands over text) verifies the same.
  expect(await outcome(paytami.webhooks.constructEvent(request.body.toString("utf8"), signatureOf(request), secret))).toBe("accepted");

  const changed = Buffer.from(request.body.toString().replace('"status":"captured"', '"status":"refunded"'));
  expect(changed.equals(request.body)).toBe(false);
  expect(await outcome(paytami.webhooks.constructEvent(changed, signatureOf(request), secret))).toBe("refused");
  expect(await outcome(paytami.webhooks.constructEvent(request.body, signatureOf(request), `${secret}x`))).toBe("refused");
  const { secret: another } = await endpoint();
  expect(await outcome(paytami.webhooks.constructEvent(request.body, signatureOf(request), another))).toBe("refused");

  // The same body signed correctly with the real secret, but 301 s ago: past the default tolerance.
  const old = Math.floor(Date.now() / 1000) - 301;
  const oldHeader = `t=${old},v1=${createHmac("sha256", secret).update(`${old}.`).update(request.body).digest("hex")}`;
  expect(await outcome(paytami.webhooks.constructEvent(request.body, oldHeader, secret))).toBe("refused");
  expect(await outcome(paytami.webhooks.constructEvent(request.body, oldHeader, secret, 600))).toBe("accepted");
  // The delivery's own header also fails once the tolerance is shorter than its age.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  expect(await outcome(paytami.webhooks.constructEvent(request.body, signatureOf(request), secret, 0))).toBe("refused");
});

test("during a rotation the delivery carries two v1= entries and either secret verifies it", async () => {
  const ep = await endpoint();
  const rotated = await getStack().core.webhooks.rotateSecret({ id: ep.id });
  const request = await delivery();
  const header = signatureOf(request);
  expect(header.match(/v1=/g)).toHaveLength(2);
  expect(await outcome(paytami.webhooks.constructEvent(request.body, header, rotated.secret))).toBe("accepted");
  expect(await outcome(paytami.webhooks.constructEvent(request.body, header, ep.secret))).toBe("accepted");
  expect(await outcome(paytami.webhooks.constructEvent(request.body, header, `${ep.secret}x`))).toBe("refused");
});

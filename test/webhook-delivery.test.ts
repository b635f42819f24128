// Webhook delivery end to end (issue 8 item 4): a state change commits an outbox row, the relay
// publishes it to JetStream, the dispatcher has the core record one delivery per subscribed endpoint
// and POSTs it, signed, to real HTTP receivers on loopback ports; faults end with every event
// delivered and every attempt recorded. The retry schedule and the deadline are compressed.
import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { createOk, useStack } from "./support/expect.ts";
import { eventually } from "./support/eventually.ts";
import { WebhookReceiver, type ReceivedRequest } from "./support/webhook-receiver.ts";

const getStack = useStack({
  dispatcher: true,
  env: {
    WEBHOOK_RETRY_SCHEDULE: "0,300ms,300ms,300ms,300ms,300ms",
    WEBHOOK_TIMEOUT: "1s",
    WEBHOOK_ENDPOINT_CONCURRENCY: "3",
    DISPATCHER_POLL_INTERVAL: "100ms",
    OUTBOX_RELAY_INTERVAL: "50ms",
  },
});

const receivers: WebhookReceiver[] = [];
async function receiver(behaviour?: ConstructorParameters<typeof WebhookReceiver>[0]): Promise<WebhookReceiver> {
  const r = await new WebhookReceiver(behaviour).start();
  receivers.push(r);
  return r;
}
afterAll(async () => {
  for (const r of receivers) await r.stop();
});

async function endpoint(merchantId: string, url: string, events: string[] = [], mode = "test"): Promise<{ id: string; secret: string }> {
  const created = await getStack().core.webhooks.createEndpoint({ merchant_id: merchantId, mode: modeCodec.fromWire(mode), url, enabled_events: events });
  return { id: created.endpoint!.id, secret: created.secret };
}

/** Creates a payment and drives it to `step`; returns the payment id and its event's id (from the event store). */
async function paymentEvent(key: string, step: "succeed" | "fail" | "cancel" = "succeed"): Promise<{ paymentId: string; eventId: string }> {
  const stack = getStack();
  const paymentId = (await createOk(stack.http, key)).id as string;
  await stack.admin.simulate(paymentId, step);
  const [row] = await stack.sql<{ id: string }>("select id from outbox_events where envelope->'data'->>'id' = $1", [paymentId]);
  return { paymentId, eventId: row!.id };
}

/** An independent check of `t=<unix>,v1=<hex>[,v1=…]`: HMAC-SHA256 with the secret string as key over "<t>.<raw body>". */
function signatures(request: ReceivedRequest): { t: number; v1: string[] } {
  const header = String(request.headers["service-signature"]);
  expect(header).toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
  const parts = header.split(",");
  return { t: Number(parts[0]!.slice(2)), v1: parts.slice(1).map((p) => p.slice(3)) };
}
function validFor(request: ReceivedRequest, secret: string): boolean {
  const { t, v1 } = signatures(request);
  const expected = createHmac("sha256", secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), request.body]))
    .digest();
  return v1.some((hex) => timingSafeEqual(Buffer.from(hex, "hex"), expected));
}

async function delivery(eventId: string, endpointId: string) {
  const [row] = await getStack().sql<{ id: string; status: string; attempt_count: number }>(
    "select id, status, attempt_count from webhook_deliveries where event_id = $1 and endpoint_id = $2",
    [eventId, endpointId],
  );
  return row;
}
async function attempts(eventId: string, endpointId: string) {
  return getStack().sql<{ http_status: number | null; error: string | null; succeeded: boolean; latency_ms: number; response_excerpt: string }>(
    `select a.http_status, a.error, a.succeeded, a.latency_ms, a.response_excerpt from webhook_attempts a
     join webhook_deliveries d on d.id = a.delivery_id where d.event_id = $1 and d.endpoint_id = $2 order by a.seq`,
    [eventId, endpointId],
  );
}
const succeeded = (eventId: string, endpointId: string) =>
  eventually(
    async () => ((await delivery(eventId, endpointId))?.status === "succeeded" ? true : undefined),
    30_000,
    `delivery of ${eventId} to ${endpointId} to succeed`,
  );

describe("signed deliveries", () => {
  let merchant: { merchantId: string; testApiKey: string };
  beforeAll(async () => {
    merchant = await getStack().admin.createMerchant({ name: "Webhooks S.A." });
  });

  test("POST with the envelope as stored, the spec's headers and a signature an independent HMAC verifies", async () => {
    const r = await receiver();
    const ep = await endpoint(merchant.merchantId, r.url);
    const { paymentId, eventId } = await paymentEvent(merchant.testApiKey);
    await r.waitFor((rs) => rs.some((x) => x.eventId === eventId));
    const [req] = r.for(eventId);
    expect(req!.method).toBe("POST");
    expect(req!.path).toBe("/hooks");
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.headers["user-agent"]).toBe("Service-Webhooks/1.0");
    expect(req!.headers["service-event-id"]).toBe(eventId);
    const envelope = JSON.parse(req!.body.toString()) as { id: string; type: string; created_at: string; data: { id: string; status: string } };
    expect(envelope.id).toBe(eventId);
    expect(envelope.type).toBe("payment.succeeded");
    expect(envelope.data.id).toBe(paymentId);
    expect(envelope.data).toEqual((await getStack().http.getPayment(merchant.testApiKey, paymentId)).json);
    const { t, v1 } = signatures(req!);
    expect(v1).toHaveLength(1);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(300);
    expect(validFor(req!, ep.secret)).toBe(true);
    expect(validFor(req!, ep.secret + "x")).toBe(false);
    await succeeded(eventId, ep.id);
    const recorded = await attempts(eventId, ep.id);
    expect(recorded).toEqual([{ http_status: 200, error: null, succeeded: true, latency_ms: expect.any(Number), response_excerpt: "ok" }]);
  });

  test("during a rotation both secrets sign: two v1 entries, each valid for its own secret", async () => {
    const r = await receiver();
    const ep = await endpoint(merchant.merchantId, r.url);
    const rotated = await getStack().core.webhooks.rotateSecret({ id: ep.id });
    expect(rotated.secret).not.toBe(ep.secret);
    const { eventId } = await paymentEvent(merchant.testApiKey, "fail");
    await r.waitFor((rs) => rs.some((x) => x.eventId === eventId));
    const [req] = r.for(eventId);
    const { v1 } = signatures(req!);
    expect(v1).toHaveLength(2);
    expect(validFor(req!, rotated.secret)).toBe(true);
    expect(validFor(req!, ep.secret)).toBe(true);
    // Each entry is the signature of one secret: the current secret's comes first.
    const t = signatures(req!).t;
    const sign = (secret: string) => createHmac("sha256", secret).update(`${t}.`).update(req!.body).digest("hex");
    expect(v1).toEqual([sign(rotated.secret), sign(ep.secret)]);
  });

  test("subscriptions filter by type; other merchants' and the other mode's endpoints get nothing", async () => {
    const all = await receiver();
    const failedOnly = await receiver();
    const other = await receiver();
    const epAll = await endpoint(merchant.merchantId, all.url);
    const epFailed = await endpoint(merchant.merchantId, failedOnly.url, ["payment.failed"]);
    const otherMerchant = await getStack().admin.createMerchant({ name: "Otra S.A." });
    const epOther = await endpoint(otherMerchant.merchantId, other.url);
    const epLive = await endpoint(merchant.merchantId, "https://93.184.216.34/paytami", [], "live");

    const succeededEvent = await paymentEvent(merchant.testApiKey, "succeed");
    const failedEvent = await paymentEvent(merchant.testApiKey, "fail");
    const canceledEvent = await paymentEvent(merchant.testApiKey, "cancel");
    await succeeded(canceledEvent.eventId, epAll.id);
    await succeeded(failedEvent.eventId, epFailed.id);
    await succeeded(succeededEvent.eventId, epAll.id);
    await succeeded(failedEvent.eventId, epAll.id);
    // The other merchant's own event still reaches its endpoint, so the dispatcher did run for it.
    const otherEvent = await paymentEvent(otherMerchant.testApiKey, "succeed");
    await succeeded(otherEvent.eventId, epOther.id);

    expect(new Set(all.requests.map((x) => x.eventId))).toEqual(new Set([succeededEvent.eventId, failedEvent.eventId, canceledEvent.eventId]));
    expect(failedOnly.requests.map((x) => x.eventId)).toEqual([failedEvent.eventId]);
    expect(other.requests.map((x) => x.eventId)).toEqual([otherEvent.eventId]);
    const [live] = await getStack().sql<{ n: string }>("select count(*) as n from webhook_deliveries where endpoint_id = $1", [epLive.id]);
    expect(live!.n).toBe("0");
  });
});

describe("faults end with every event delivered and recorded", () => {
  let merchant: { merchantId: string; testApiKey: string };
  beforeAll(async () => {
    merchant = await getStack().admin.createMerchant({ name: "Fallas S.A." });
  });

  test("500 twice then 200: three attempts with byte-identical bodies and the same event id, all recorded", async () => {
    const r = await receiver((req) => (r.requests.filter((x) => x.eventId === req.eventId).length <= 2 ? { status: 500, body: "boom" } : { status: 200 }));
    const ep = await endpoint(merchant.merchantId, r.url);
    const { eventId } = await paymentEvent(merchant.testApiKey);
    await succeeded(eventId, ep.id);
    const got = r.for(eventId);
    expect(got).toHaveLength(3);
    for (const req of got) {
      expect(req.body.equals(got[0]!.body)).toBe(true);
      expect(req.headers["service-event-id"]).toBe(eventId);
      expect(validFor(req, ep.secret)).toBe(true);
    }
    expect((await attempts(eventId, ep.id)).map((a) => [a.http_status, a.succeeded, a.response_excerpt])).toEqual([
      [500, false, "boom"],
      [500, false, "boom"],
      [200, true, ""],
    ]);
    expect((await delivery(eventId, ep.id))!.attempt_count).toBe(3);
  });

  test("a redirect is a failure and is not followed", async () => {
    const target = await receiver();
    const r = await receiver((req) => (r.for(req.eventId!).length === 1 ? { status: 302, headers: { location: target.url } } : { status: 204 }));
    const ep = await endpoint(merchant.merchantId, r.url);
    const { eventId } = await paymentEvent(merchant.testApiKey);
    await succeeded(eventId, ep.id);
    expect(target.requests).toHaveLength(0);
    expect((await attempts(eventId, ep.id)).map((a) => [a.http_status, a.succeeded])).toEqual([
      [302, false],
      [204, true],
    ]);
  });

  test("a receiver that hangs past the deadline: the attempt fails as a timeout and the next one delivers", async () => {
    const r = await receiver((req) => (r.for(req.eventId!).length === 1 ? "hang" : { status: 200 }));
    const ep = await endpoint(merchant.merchantId, r.url);
    const { eventId } = await paymentEvent(merchant.testApiKey);
    await succeeded(eventId, ep.id);
    const recorded = await attempts(eventId, ep.id);
    expect(recorded).toHaveLength(2);
    expect(recorded[0]!.http_status).toBeNull();
    expect(recorded[0]!.error).toMatch(/no response within 1000 ms/);
    expect(recorded[0]!.latency_ms).toBeGreaterThanOrEqual(1000);
    expect(recorded[1]!.http_status).toBe(200);
  });

  test("a receiver down for a while: refused attempts are recorded and the events arrive once it is back", async () => {
    const r = await receiver();
    const ep = await endpoint(merchant.merchantId, r.url);
    await r.stop();
    const events = [await paymentEvent(merchant.testApiKey), await paymentEvent(merchant.testApiKey, "fail")];
    await eventually(
      async () => {
        const rows = await Promise.all(events.map((e) => attempts(e.eventId, ep.id)));
        return rows.every((a) => a.length >= 2) ? true : undefined;
      },
      30_000,
      "two refused attempts per event",
    );
    await r.start();
    for (const e of events) await succeeded(e.eventId, ep.id);
    for (const e of events) {
      const recorded = await attempts(e.eventId, ep.id);
      expect(recorded.at(-1)!.http_status).toBe(200);
      expect(recorded.slice(0, -1).every((a) => a.http_status === null && /ECONNREFUSED/.test(a.error ?? ""))).toBe(true);
      expect(r.for(e.eventId)).toHaveLength(1);
    }
  });

  test("after the last attempt the delivery is failed; replay sends it again with the same body", async () => {
    let accept = false;
    const r = await receiver(() => (accept ? { status: 200 } : { status: 503, headers: { "retry-after": "0" } }));
    const ep = await endpoint(merchant.merchantId, r.url);
    const { eventId } = await paymentEvent(merchant.testApiKey);
    const failed = await eventually(
      async () => {
        const row = await delivery(eventId, ep.id);
        return row?.status === "failed" ? row : undefined;
      },
      30_000,
      "the delivery to fail",
    );
    expect(failed.attempt_count).toBe(6);
    expect(r.for(eventId)).toHaveLength(6);
    accept = true;
    const replayed = await getStack().core.deliveries.replayDelivery({ id: failed.id });
    expect(replayed.delivery!.status).toBe("pending");
    await succeeded(eventId, ep.id);
    const got = r.for(eventId);
    expect(got).toHaveLength(7);
    expect(got.every((x) => x.body.equals(got[0]!.body))).toBe(true);
    const shown = await getStack().core.deliveries.getDelivery({ id: failed.id });
    expect(shown.attempts.map((a) => a.http_status)).toEqual([503, 503, 503, 503, 503, 503, 200]);
  });

  test("a dead endpoint and a hanging one never hold up a healthy one, and each holds at most its own slots", async () => {
    const healthy = await receiver();
    const hanging = await receiver(() => "hang");
    const dead = await receiver();
    await dead.stop();
    const epHealthy = await endpoint(merchant.merchantId, healthy.url);
    const epHanging = await endpoint(merchant.merchantId, hanging.url);
    const epDead = await endpoint(merchant.merchantId, dead.url);
    const events = [];
    for (let i = 0; i < 12; i++) events.push(await paymentEvent(merchant.testApiKey, i % 2 ? "fail" : "succeed"));
    for (const e of events) await succeeded(e.eventId, epHealthy.id);
    expect(new Set(healthy.requests.map((x) => x.eventId))).toEqual(new Set(events.map((e) => e.eventId)));
    // WEBHOOK_ENDPOINT_CONCURRENCY=3: the hanging endpoint never had more attempts open at once.
    expect(hanging.maxHanging).toBeGreaterThan(0);
    expect(hanging.maxHanging).toBeLessThanOrEqual(3);
    const [deadAttempts] = await getStack().sql<{ n: string }>(
      "select count(*) as n from webhook_attempts where endpoint_id = $1 and error like '%ECONNREFUSED%'",
      [epDead.id],
    );
    expect(Number(deadAttempts!.n)).toBeGreaterThan(0);
    const [hangAttempts] = await getStack().sql<{ ok: string }>("select count(*) as ok from webhook_attempts where endpoint_id = $1 and succeeded", [
      epHanging.id,
    ]);
    expect(hangAttempts!.ok).toBe("0");
    // Stop these two from retrying for the rest of the file.
    for (const id of [epHanging.id, epDead.id]) await getStack().core.webhooks.deleteEndpoint({ id });
  });
});

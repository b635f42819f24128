// Tracing (issue 19, item 4): with OTEL_EXPORTER_OTLP_ENDPOINT set, the three processes export
// OpenTelemetry spans to a collector (a loopback OTLP/HTTP JSON server here), joined by W3C
// traceparent: the facade's request, the gRPC call (metadata; the core's server span is the operation's
// span too), its SQL (a group-commit batch's under a batch span linked to each request);
// and for the event a request raised, the relay's publish (traceparent kept with the outbox row),
// the NATS hop (message headers), the dispatcher's delivery record and its webhook attempt.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { useStack, validBody } from "./support/expect.ts";
import { formBody } from "./support/link-fixtures.ts";
import { OtlpCollector, type CollectedSpan } from "./support/otlp-collector.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";
import type { Merchant } from "./support/stack.ts";

const collector = await new OtlpCollector().start();
const stack = useStack({
  dispatcher: true,
  env: {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OUTBOX_RELAY_INTERVAL: "50ms",
    DISPATCHER_POLL_INTERVAL: "100ms",
  },
});
const receiver = new WebhookReceiver();
let merchant: Merchant;

beforeAll(async () => {
  await receiver.start();
  merchant = await stack().admin.createMerchant({ name: "Tienda trazada" });
  await stack().core.webhooks.createEndpoint({
    merchant_id: merchant.merchantId,
    mode: modeCodec.fromWire("test"),
    url: receiver.url,
    enabled_events: ["payment.succeeded"],
  });
});
afterAll(async () => {
  await receiver.stop();
  await collector.stop();
});

/** Retries `check` (assertions included) until it passes: spans arrive in the exporters' next batches. */
async function settled<T>(check: () => T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The one span matching `where` (waiting for the exporters' next batch); fails on none or several. */
async function one(where: (span: CollectedSpan) => boolean, what: string): Promise<CollectedSpan> {
  return settled(() => {
    const found = collector.spans.filter(where);
    expect(found, what).toHaveLength(1);
    return found[0]!;
  });
}

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

describe("one trace per request, continued by the event it raised", () => {
  let paymentId: string;
  let createTrace: string;

  test("POST /v1/payments: the facade's request, its gRPC call on both sides, create_payment and its SQL share one trace id", async () => {
    expect((await stack().http.get("/healthz")).status).toBe(200);
    const res = await stack().http.createPayment(merchant.testApiKey, validBody(), { headers: { "request-id": "tracing-create-1" } });
    expect(res.status, res.text).toBe(201);
    paymentId = (res.json as { id: string }).id;

    const request = await one((s) => s.service === "paytami-facade" && s.attributes["paytami.request_id"] === "tracing-create-1", "the facade's request span");
    expect(request).toMatchObject({ name: "POST /v1/payments", kind: SERVER, parentSpanId: "" });
    expect(request.attributes["http.response.status_code"]).toBe(201);
    createTrace = request.traceId;
    // The probe just before it made no span (it would have been exported in the same or an earlier batch).
    expect(collector.spans.filter((s) => s.attributes["url.path"] === "/healthz")).toEqual([]);
    const inTrace = (s: CollectedSpan) => s.traceId === createTrace;

    // The request span stands for the facade's call to the core (no client span covering the same time).
    expect(collector.spans.filter((s) => inTrace(s) && s.service === "paytami-facade" && s.kind === CLIENT)).toEqual([]);
    const served = await one((s) => inTrace(s) && s.service === "paytami-core" && s.kind === SERVER, "the core's gRPC server span");
    expect(served).toMatchObject({ name: "paytami.v1.PaymentService/CreatePayment", parentSpanId: request.spanId });
    // The server span is the operation's span: one span, not a second one covering the same time.
    expect(served.attributes).toMatchObject({ "paytami.operation": "create_payment", "paytami.transaction": "statement" });
    await settled(() => {
      const sql = collector.spans.filter((s) => inTrace(s) && s.service === "paytami-core" && s.name.startsWith("pg.query"));
      expect(sql.length, "SQL spans of create_payment").toBeGreaterThan(0);
      const ids = new Set(collector.spans.filter(inTrace).map((s) => s.spanId));
      // Each statement hangs inside the operation (its parent is the operation span or a span under it).
      for (const statement of sql) expect(ids).toContain(statement.parentSpanId);
      expect(sql.some((s) => s.parentSpanId === served.spanId)).toBe(true);
    });
  });

  test("the payment.succeeded a simulate raised: relay publish, NATS hop, delivery record and webhook attempt continue the simulate's trace", async () => {
    await stack().admin.simulate(paymentId, "succeed");
    const [event] = await stack().sql<{ id: string; traceparent: string | null }>(
      "select id, traceparent from outbox_events where type = 'payment.succeeded' and envelope->'data'->>'id' = $1",
      [paymentId],
    );
    await settled(() => expect(receiver.requests.some((r) => r.eventId === event!.id)).toBe(true));

    // The simulate came from this test's operator client, which does not trace: the core's server span is the root.
    const served = await one((s) => s.name === "paytami.v1.AdminService/SimulatePayment" && s.service === "paytami-core", "the simulate's server span");
    expect(served).toMatchObject({ kind: SERVER, parentSpanId: "" });
    const trace = served.traceId;
    expect(trace).not.toBe(createTrace);
    expect(served.attributes["paytami.operation"]).toBe("simulate_payment");
    // The outbox row keeps the traceparent of the operation that raised the event.
    expect(event!.traceparent).toBe(`00-${trace}-${served.spanId}-01`);

    const publish = await one((s) => s.kind === PRODUCER && s.attributes["messaging.message.id"] === event!.id, "the relay's publish span");
    expect(publish).toMatchObject({
      service: "paytami-core",
      traceId: trace,
      parentSpanId: served.spanId,
      name: "paytami.events.test.payment.succeeded publish",
    });
    const record = await one((s) => s.kind === CONSUMER && s.attributes["messaging.message.id"] === event!.id, "the dispatcher's delivery record span");
    expect(record).toMatchObject({ service: "paytami-dispatcher", traceId: trace, parentSpanId: publish.spanId });
    const recordCall = await one((s) => s.parentSpanId === record.spanId && s.kind === CLIENT, "the dispatcher's RecordDeliveries call");
    expect(recordCall).toMatchObject({ name: "paytami.v1.DeliveryService/RecordDeliveries", traceId: trace });
    const recordServed = await one((s) => s.parentSpanId === recordCall.spanId, "the core's RecordDeliveries server span");
    expect(recordServed).toMatchObject({ service: "paytami-core", kind: SERVER, traceId: trace });
    expect(recordServed.attributes["paytami.operation"]).toBe("record_deliveries");

    const attempt = await one((s) => s.name === "webhook attempt" && s.attributes["paytami.event_id"] === event!.id, "the webhook attempt span");
    expect(attempt).toMatchObject({ service: "paytami-dispatcher", kind: CLIENT, traceId: trace, parentSpanId: served.spanId });
    expect(attempt.attributes["http.response.status_code"]).toBe(200);
    expect(attempt.attributes["paytami.attempt"]).toBe(1);
  });

  test("a card paid on the hosted page: one trace from the facade's POST /pay/{id} to the webhook attempt of the payment.succeeded it raised", async () => {
    const created = await stack().http.createPayment(merchant.testApiKey, validBody());
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: string }).id;
    const form = formBody({ card_number: "4242424242424242", card_expiry: "12/30", card_cvc: "123", card_name: "Ana López" });
    const paid = await stack().http.post(`/pay/${id}`, { ...form, headers: { ...form.headers, "request-id": "tracing-pay-1" } });
    expect(paid.status, paid.text.slice(0, 300)).toBe(303);

    const request = await one(
      (s) => s.service === "paytami-facade" && s.attributes["paytami.request_id"] === "tracing-pay-1",
      "the facade's POST /pay/{id} span",
    );
    expect(request).toMatchObject({ name: "POST /pay/:id", kind: SERVER, parentSpanId: "" });
    const trace = request.traceId;
    const [event] = await stack().sql<{ id: string }>("select id from outbox_events where type = 'payment.succeeded' and envelope->'data'->>'id' = $1", [id]);
    const inTrace = (s: CollectedSpan) => s.traceId === trace;
    // The core serves two calls in this trace: SubmitCard, and (once the event's hop is in) the dispatcher's RecordDeliveries.
    const submit = await one(
      (s) => inTrace(s) && s.service === "paytami-core" && s.kind === SERVER && s.name === "paytami.v1.CheckoutService/SubmitCard",
      "the core's SubmitCard server span",
    );
    expect(submit.parentSpanId, "SubmitCard continues the facade's request span").toBe(request.spanId);
    const publish = await one((s) => s.kind === PRODUCER && s.attributes["messaging.message.id"] === event!.id, "the relay's publish span");
    const record = await one((s) => s.kind === CONSUMER && s.attributes["messaging.message.id"] === event!.id, "the delivery record span");
    const attempt = await one((s) => s.name === "webhook attempt" && s.attributes["paytami.event_id"] === event!.id, "the webhook attempt span");
    for (const span of [publish, record, attempt]) expect(span.traceId, span.name).toBe(trace);
    expect(record.parentSpanId).toBe(publish.spanId);
    expect(new Set(collector.spans.filter(inTrace).map((s) => s.service))).toEqual(new Set(["paytami-facade", "paytami-core", "paytami-dispatcher"]));
  });

  test("creations committed together: the batch's statements hang from a batch span linked to each request's span", async () => {
    const requestIds = Array.from({ length: 32 }, (_, i) => `tracing-batch-${i}`);
    const answers = await Promise.all(requestIds.map((id) => stack().http.createPayment(merchant.testApiKey, validBody(), { headers: { "request-id": id } })));
    for (const res of answers) expect(res.status, res.text).toBe(201);
    // Each request's span in the core: the CreatePayment server span of the trace its facade span began.
    const served = await settled(() =>
      requestIds.map((id) => {
        const [request] = collector.spans.filter((s) => s.service === "paytami-facade" && s.attributes["paytami.request_id"] === id);
        expect(request, id).toBeDefined();
        const [span] = collector.spans.filter((s) => s.traceId === request!.traceId && s.service === "paytami-core" && s.kind === SERVER);
        expect(span, id).toBeDefined();
        return span!;
      }),
    );
    const servedIds = new Set(served.map((s) => s.spanId));
    await settled(() => {
      const batches = collector.spans.filter((s) => s.name === "create_charge batch" && s.links.some((l) => servedIds.has(l)));
      // 32 at once: those that arrive while the first statement runs go together.
      expect(batches.length).toBeGreaterThan(0);
      const linked = new Set<string>();
      for (const batch of batches) {
        expect(batch).toMatchObject({ service: "paytami-core", parentSpanId: "" });
        expect(batch.links).toHaveLength(Number(batch.attributes["paytami.batch_size"]));
        for (const link of batch.links) {
          expect(servedIds.has(link)).toBe(true);
          expect(linked.has(link), "a request in two batches").toBe(false);
          linked.add(link);
        }
        expect(collector.spans.some((s) => s.name.startsWith("pg.query") && s.parentSpanId === batch.spanId)).toBe(true);
      }
      // A request that went alone has its statement under its own span.
      for (const span of served.filter((s) => !linked.has(s.spanId))) {
        expect(collector.spans.some((s) => s.name.startsWith("pg.query") && s.parentSpanId === span.spanId)).toBe(true);
      }
    });
  });

  test("every export was OTLP JSON on /v1/traces, and background polls made no traces of their own", () => {
    // The dispatcher claims every 100 ms here: those calls (and the core's side of them) are not sampled.
    for (const poll of ["ClaimDueDeliveries", "RecordAttempts", "ReleaseDeliveries"]) {
      expect(collector.spans.filter((s) => s.name === `paytami.v1.DeliveryService/${poll}`)).toEqual([]);
    }
    expect(collector.refused).toEqual([]);
    expect(collector.exports).toBeGreaterThan(0);
    // instrumentation-pg runs with requireParentSpan: a statement outside a traced operation (the relay's or a job's poll) is no root span.
    expect(collector.spans.filter((s) => s.name.startsWith("pg.query") && s.parentSpanId === "")).toEqual([]);
  });
});

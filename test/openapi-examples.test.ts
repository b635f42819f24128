// The document's examples are real answers (facade/src/openapi/examples.ts): this suite makes every
// one of them against a real stack. OPENAPI_EXAMPLES=record rewrites the file from these answers;
// otherwise it checks that the committed examples are still what the service answers (ids, times and
// the stack's address aside), so an example cannot outlive the behaviour it shows.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { beforeAll, describe, expect, test } from "vitest";
import { RECORDED_EXAMPLES, type RecordedExamples } from "../facade/src/openapi/examples.ts";
import { newIdemKey, type Res } from "./support/http.ts";
import { createOk, randomPaymentId, useStack, validBody } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
import { modeCodec } from "../proto/enums.ts";

const stack = useStack();
const EXAMPLES_FILE = fileURLToPath(new URL("../facade/src/openapi/examples.ts", import.meta.url));
/** The origin the examples show in place of the stack's loopback address. */
const SHOWN_ORIGIN = "https://api.paytami.com";
const SAMPLE_SECRET = `whsec_${"0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"}`;

let m: Merchant;
const recorded: RecordedExamples = {};

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Ejemplo" });
});

/** Keeps `res` as the example `name` of `operationId` at its status (the stack's origin replaced). */
function keep(operationId: string, res: Res, name = "ok"): any {
  // A webhook secret is shown as a fixed sample, not the test stack's (secrets are never committed, even throw-away ones).
  const text = res.text.replaceAll(stack().http.baseUrl, SHOWN_ORIGIN).replace(/whsec_[A-Za-z0-9_-]{43}/g, SAMPLE_SECRET);
  const body = JSON.parse(text) as unknown;
  ((recorded[operationId] ??= {})[String(res.status)] ??= {})[name] = body;
  return res.json;
}

const http = () => stack().http;
const key = () => m.testApiKey;

/** What may differ between two runs: ids, times, the embed token (it signs an id and a time). */
function masked(value: unknown): unknown {
  if (typeof value === "string") {
    return value
      .replace(/\b(pay|link|refund|evt|chb|payout|ba|we)_[0-9a-f]{24}\b/g, "$1_…")
      .replace(/token=[^&#"]+/g, "token=…")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
  }
  if (Array.isArray(value)) return value.map(masked);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
  return value;
}

describe("the document's examples are real answers", () => {
  test("payments, checkout, links, refunds and events, each answer kept", async () => {
    const created = keep("createPayment", await http().createPayment(key(), validBody({ amount: "15000", description: "Pedido 1042" })));
    keep(
      "createPayment",
      await http().createPayment(key(), validBody(), { idem: undefined, headers: { "idempotency-key": undefined } }),
      "idempotency_key_required",
    );
    keep("createPayment", await http().createPayment(undefined, validBody()), "unauthorized");
    keep("createPayment", await http().createPayment(key(), validBody({ amount: "15.00" })), "validation_error");
    keep("createPayment", await http().createPayment(key(), validBody({ currency: "EUR" })), "currency_not_supported");
    keep("createPayment", await http().createPayment(key(), validBody({ currency: "USD", method_type: "bank_transfer" })), "method_not_supported");
    keep("createPayment", await http().createPayment(key(), validBody({ amount: "100" })), "amount_below_minimum");
    keep("createPayment", await http().createPayment(key(), validBody({ amount: "99999999" })), "amount_above_maximum");
    const reusedKey = newIdemKey();
    await http().createPayment(key(), validBody(), { idem: reusedKey });
    keep("createPayment", await http().createPayment(key(), validBody({ amount: "20000" }), { idem: reusedKey }), "idempotency_key_reused");

    keep("getPayment", await http().getPayment(key(), created.id));
    keep("getPayment", await http().getPayment(key(), randomPaymentId()), "unknown_payment");
    keep("listPayments", await http().listPayments(key(), { limit: "1" }));
    keep("listPayments", await http().listPayments(key(), { limit: "500" }), "validation_error");

    keep("getCheckoutSession", await http().get(`/v1/payments/${created.id}/checkout_session`));
    keep("getCheckoutSession", await http().get(`/v1/payments/${randomPaymentId()}/checkout_session`), "unknown_payment");
    keep("redirectToCheckout", await http().get(`/v1/checkout/${randomPaymentId()}`), "unknown_payment");

    const toCancel = await createOk(http(), key());
    keep("cancelPayment", await http().post(`/v1/payments/${toCancel.id}/cancel`, { key: key() }));
    keep("cancelPayment", await http().post(`/v1/payments/${toCancel.id}/cancel`, { key: key() }), "payment_not_payable");

    const fixed = keep(
      "createPaymentLink",
      await http().post("/v1/payment_links", {
        key: key(),
        idem: newIdemKey(),
        body: { title: "Camiseta", description: "Talla M", currency: "GTQ", fixed_amount_minor: "12500" },
      }),
    );
    const variable = await http().post("/v1/payment_links", {
      key: key(),
      idem: newIdemKey(),
      body: { title: "Donación", description: "Biblioteca escolar", currency: "GTQ", min_amount_minor: "1000", max_amount_minor: "500000" },
    });
    keep("createPaymentLink", await http().post("/v1/payment_links", { key: key(), idem: newIdemKey(), body: { title: "Sin moneda" } }), "validation_error");
    keep("listPaymentLinks", await http().get("/v1/payment_links?limit=1", { key: key() }));
    keep("getPaymentLink", await http().get(`/v1/payment_links/${fixed.id}`));
    keep("getPaymentLink", await http().get("/v1/payment_links/link_0123456789abcdef01234567"), "unknown_payment_link");
    keep("payPaymentLink", await http().post(`/v1/payment_links/${fixed.id}/pay`, { idem: newIdemKey(), body: { method_type: "card" } }));
    keep(
      "payPaymentLink",
      await http().post(`/v1/payment_links/${variable.json.id}/pay`, { idem: newIdemKey(), body: { method_type: "card" } }),
      "amount_required",
    );
    keep(
      "payPaymentLink",
      await http().post(`/v1/payment_links/${variable.json.id}/pay`, { idem: newIdemKey(), body: { method_type: "card", amount: "500" } }),
      "amount_below_minimum",
    );
    keep(
      "payPaymentLink",
      await http().post("/v1/payment_links/link_0123456789abcdef01234567/pay", { idem: newIdemKey(), body: { method_type: "card" } }),
      "unknown_payment_link",
    );

    await stack().admin.simulate(created.id, "succeed");
    const refund = keep(
      "createRefund",
      await http().post("/v1/refunds", { key: key(), idem: newIdemKey(), body: { payment_id: created.id, amount: "5000", reason: "requested_by_customer" } }),
    );
    keep(
      "createRefund",
      await http().post("/v1/refunds", { key: key(), idem: newIdemKey(), body: { payment_id: created.id, amount: "50000" } }),
      "refund_amount_exceeds_remaining",
    );
    keep("createRefund", await http().post("/v1/refunds", { key: key(), idem: newIdemKey(), body: { payment_id: toCancel.id } }), "payment_not_refundable");
    keep("getRefund", await http().get(`/v1/refunds/${refund.id}`, { key: key() }));
    keep("listRefunds", await http().get(`/v1/refunds?payment_id=${created.id}`, { key: key() }));
    keep("redirectToCheckout", await http().get(`/v1/checkout/${created.id}`), "payment_not_payable");

    const events = keep("listEvents", await http().get("/v1/events?limit=2", { key: key() }));
    expect(events.data.length).toBeGreaterThan(0);
    keep("getEvent", await http().get(`/v1/events/${events.data.at(-1).id}`, { key: key() }));
    keep("getEvent", await http().get("/v1/events/evt_0123456789abcdef01234567", { key: key() }), "validation_error");
  });

  test("balance, payouts and chargebacks, each answer kept", async () => {
    const core = stack().core;
    const TEST = modeCodec.fromWire("test");
    await core.payouts.addBankAccount({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ", account_number: "000123456789" });
    const settled = await createOk(http(), key(), { amount: "25000" });
    await stack().admin.simulate(settled.id, "succeed");
    await stack().admin.simulate(settled.id, "settle");
    const { payout } = await core.payouts.requestPayout({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ" });
    const disputed = await createOk(http(), key(), { amount: "5000" });
    await stack().admin.simulate(disputed.id, "succeed");
    const { chargeback } = await core.payouts.simulateChargeback({ payment_id: disputed.id, action: "open" });

    keep("getBalance", await http().get("/v1/balance", { key: key() }));
    keep("getBalance", await http().get("/v1/balance"), "unauthorized");
    keep("listPayouts", await http().get("/v1/payouts?limit=1", { key: key() }));
    keep("listPayouts", await http().get("/v1/payouts?limit=0", { key: key() }), "validation_error");
    keep("getPayout", await http().get(`/v1/payouts/${payout!.id}`, { key: key() }));
    keep("getPayout", await http().get("/v1/payouts/payout_0123456789abcdef01234567", { key: key() }), "validation_error");
    keep("listChargebacks", await http().get("/v1/chargebacks?limit=1", { key: key() }));
    keep("getChargeback", await http().get(`/v1/chargebacks/${chargeback!.id}`, { key: key() }));
    keep("getChargeback", await http().get("/v1/chargebacks/chb_0123456789abcdef01234567", { key: key() }), "validation_error");
  });

  test("webhook endpoints, each answer kept", async () => {
    const endpoint = keep(
      "createWebhookEndpoint",
      await http().post("/v1/webhook_endpoints", {
        key: key(),
        idem: newIdemKey(),
        body: { url: "http://127.0.0.1:9/hooks", enabled_events: ["payment.succeeded"] },
      }),
    );
    keep(
      "createWebhookEndpoint",
      await http().post("/v1/webhook_endpoints", {
        key: key(),
        idem: newIdemKey(),
        body: { url: "http://127.0.0.1:9/hooks", enabled_events: ["payment.paid"] },
      }),
      "validation_error",
    );
    keep("listWebhookEndpoints", await http().get("/v1/webhook_endpoints?limit=1", { key: key() }));
    keep("getWebhookEndpoint", await http().get(`/v1/webhook_endpoints/${endpoint.id}`, { key: key() }));
    keep("getWebhookEndpoint", await http().get("/v1/webhook_endpoints/we_0123456789abcdef01234567", { key: key() }), "validation_error");
    keep("updateWebhookEndpoint", await http().post(`/v1/webhook_endpoints/${endpoint.id}`, { key: key(), body: { enabled: false } }));
    keep("updateWebhookEndpoint", await http().post(`/v1/webhook_endpoints/${endpoint.id}`, { key: key(), body: { enabled: "no" } }), "validation_error");
    await http().post(`/v1/webhook_endpoints/${endpoint.id}`, { key: key(), body: { enabled: true } });
    keep("rotateWebhookEndpointSecret", await http().post(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { key: key() }));
    keep("sendWebhookTestEvent", await http().post(`/v1/webhook_endpoints/${endpoint.id}/test_event`, { key: key(), body: { type: "payment.succeeded" } }));
    keep("deleteWebhookEndpoint", await http().request("DELETE", `/v1/webhook_endpoints/${endpoint.id}`, { key: key() }));
    keep("deleteWebhookEndpoint", await http().request("DELETE", `/v1/webhook_endpoints/${endpoint.id}`, { key: key() }), "validation_error");
  });

  test("the committed examples are these answers", async () => {
    // Every kept answer has its operation's declared status (the conformance check has run on each).
    for (const [operationId, byStatus] of Object.entries(recorded)) {
      for (const [status, byName] of Object.entries(byStatus)) {
        for (const [name, body] of Object.entries(byName)) {
          if (name !== "ok") expect((body as { error: { code: string } }).error.code, `${operationId} ${status} ${name}`).toBe(name);
        }
      }
    }

    if (process.env.OPENAPI_EXAMPLES === "record") {
      const source = await prettier.format(
        `// Recorded by test/openapi-examples.test.ts from real answers of a real stack (OPENAPI_EXAMPLES=record
// rewrites it; every other run checks it still matches what the service answers). Do not edit by hand.

/** operationId → HTTP status → example name ("ok", or the catalog code) → the body. */
export type RecordedExamples = Record<string, Record<string, Record<string, unknown>>>;

export const RECORDED_EXAMPLES: RecordedExamples = ${JSON.stringify(recorded)};
`,
        { ...(await prettier.resolveConfig(EXAMPLES_FILE)), filepath: EXAMPLES_FILE },
      );
      await writeFile(EXAMPLES_FILE, source);
    } else {
      expect(masked(RECORDED_EXAMPLES), "facade/src/openapi/examples.ts is stale: rerun this file with OPENAPI_EXAMPLES=record").toEqual(masked(recorded));
    }
  });
});

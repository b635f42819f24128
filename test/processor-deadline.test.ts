// Processor calls have a deadline, and a link's max_payments is checked before authorizing (issue
// 14, finding 7), against the real stack with PROCESSOR_CALL_TIMEOUT=1s. The sandbox's hanging
// cards stand in for a slow card network: 4000000000000408 never answers and honours the abort
// (nothing charged), 4000000000000507 ignores it and succeeds half a second after the deadline. Each
// processor call is counted by the core (paytami_core_processor_calls_total), which is how these
// tests see whether the processor was asked at all.
import { randomBytes, randomInt } from "node:crypto";
import { describe, expect, test } from "vitest";
import { coreRefusal, createOk, useStack } from "./support/expect.ts";
import { coreMetricSamples } from "./support/core-metrics.ts";
import { createLink, formBody } from "./support/link-fixtures.ts";

const TIMEOUT_MS = 1_000;
const stack = useStack({ allow503: true, env: { PROCESSOR_CALL_TIMEOUT: `${TIMEOUT_MS}ms` } });
const NO_ANSWER = "4000000000000408";
const LATE_ANSWER = "4000000000000507";

const card = (number: string) => ({ number, exp_month: 12, exp_year: 2030, cvc: "123", holder_name: "Ana López" });
const submit = (id: string, number: string) => stack().core.checkout.submitCard({ payment_id: id, card: card(number) });

/** How many times the core called the processor's chargeCard, however the calls ended. */
async function chargeCalls(): Promise<number> {
  let total = 0;
  for (const [sample, count] of await coreMetricSamples([stack().coreHttpUrl], stack().internalToken)) {
    if (sample.startsWith("paytami_core_processor_calls_total{") && sample.includes('call="charge_card"')) total += count;
  }
  return total;
}

async function payment(id: string): Promise<{ status: string; authorized_at: Date | null; attempt_expires_at: Date | null; expires_at: Date }> {
  const [row] = await stack().sql<any>("select status, authorized_at, attempt_expires_at, expires_at from payments where id = $1", [id]);
  return row;
}

async function captures(id: string): Promise<number> {
  const rows = await stack().sql("select 1 from ledger_transactions where payment_id = $1 and kind = 'capture'", [id]);
  return rows.length;
}

async function succeededEvents(id: string): Promise<number> {
  const rows = await stack().sql("select 1 from outbox_events where type = 'payment.succeeded' and envelope->'data'->>'id' = $1", [id]);
  return rows.length;
}

describe("a processor that hangs past PROCESSOR_CALL_TIMEOUT", () => {
  test("withdrawn at the deadline: the page answers 503 with the form, one call, nothing charged; the payment is paid afterwards", async () => {
    const merchant = await stack().admin.createMerchant();
    const id = (await createOk(stack().http, merchant.testApiKey)).id as string;
    const callsBefore = await chargeCalls();
    const started = Date.now();
    const page = stack().http.post(`/pay/${id}`, formBody({ card_number: NO_ANSWER, card_expiry: "12/30", card_cvc: "123", card_name: "Ana López" }));
    // While the first call hangs, a second submit is refused without reaching the processor.
    await expect.poll(async () => (await payment(id)).attempt_expires_at !== null, { timeout: 5_000, interval: 50 }).toBe(true);
    expect((await coreRefusal(submit(id, "4242424242424242"))).code).toBe("payment_not_payable");
    const res = await page;
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 4_000);
    expect(res.status).toBe(503);
    expect(res.text).toContain('name="card_number"');
    expect(await chargeCalls()).toBe(callsBefore + 1);
    expect(await payment(id)).toMatchObject({ status: "created", authorized_at: null, attempt_expires_at: null });
    expect(await captures(id)).toBe(0);
    // Nothing was charged, so the customer may pay: one capture, one payment.succeeded.
    await submit(id, "4242424242424242");
    expect((await payment(id)).status).toBe("captured");
    expect(await chargeCalls()).toBe(callsBefore + 2);
    expect(await captures(id)).toBe(1);
  });

  test("still running at the deadline: 503 processor_unavailable, not a hang; held with no second attempt; the late answer is the one charge", async () => {
    const merchant = await stack().admin.createMerchant();
    const id = (await createOk(stack().http, merchant.testApiKey)).id as string;
    const callsBefore = await chargeCalls();
    const started = Date.now();
    const error = await coreRefusal(submit(id, LATE_ANSWER));
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 4_000);
    expect(error.code).toBe("processor_unavailable");
    expect(error.message).toMatch(/do not pay it again/);
    const held = await payment(id);
    expect(held).toMatchObject({ status: "processing", authorized_at: null });
    expect(held.attempt_expires_at).toEqual(held.expires_at);
    // A second card, another tab, a cancel: all refused while the first call may still charge.
    expect((await coreRefusal(submit(id, "4242424242424242"))).code).toBe("payment_not_payable");
    expect((await coreRefusal(stack().core.checkout.cancelCheckout({ payment_id: id }))).code).toBe("payment_not_payable");
    expect(await chargeCalls()).toBe(callsBefore + 1);
    // The page waits rather than offering the form again.
    expect((await stack().http.get(`/pay/${id}`)).text).not.toContain('name="card_number"');
    await expect.poll(async () => (await payment(id)).status, { timeout: 10_000, interval: 100 }).toBe("captured");
    expect(await payment(id)).toMatchObject({ attempt_expires_at: null });
    expect(await chargeCalls()).toBe(callsBefore + 1);
    expect(await captures(id)).toBe(1);
    expect(await succeededEvents(id)).toBe(1);
  });
});

describe("max_payments is checked before the processor authorizes", () => {
  const payLink = async (linkId: string) => {
    const { payment: p } = await stack().core.links.payLink({
      link_id: linkId,
      idempotency_key: `pay-${randomBytes(8).toString("hex")}`,
      method_type: "card",
      client_ip: `10.9.${randomInt(256)}.${randomInt(1, 255)}`,
    });
    return p!.id;
  };

  test("a link with max_payments 1: once one payment is captured, the second submit is refused and the processor is never called", async () => {
    const merchant = await stack().admin.createMerchant();
    const link = await createLink(stack(), merchant, { title: "Rifa", fixed_amount_minor: "2000", max_payments: 1 });
    const first = await payLink(link.id);
    const second = await payLink(link.id);
    await submit(first, "4242424242424242");
    expect((await payment(first)).status).toBe("captured");
    const callsBefore = await chargeCalls();
    const error = await coreRefusal(submit(second, "4242424242424242"));
    expect(error.code).toBe("payment_link_not_payable");
    expect(error.message).toMatch(/max_payments/);
    expect(await chargeCalls()).toBe(callsBefore);
    expect(await payment(second)).toMatchObject({ status: "created", authorized_at: null, attempt_expires_at: null });
    // Through the hosted page: a page that says so, not an error.
    const page = await stack().http.post(
      `/pay/${second}`,
      formBody({ card_number: "4242424242424242", card_expiry: "12/30", card_cvc: "123", card_name: "Ana López" }),
    );
    expect(page.status).toBe(409);
    expect(page.text).toContain("Este enlace no acepta más pagos");
    expect(await chargeCalls()).toBe(callsBefore);
  });

  test("while the link's last payment is in flight, another payment of the link is refused without a processor call", async () => {
    const merchant = await stack().admin.createMerchant();
    const link = await createLink(stack(), merchant, { title: "Rifa", fixed_amount_minor: "2000", max_payments: 1 });
    const first = await payLink(link.id);
    const second = await payLink(link.id);
    expect((await coreRefusal(submit(first, LATE_ANSWER))).code).toBe("processor_unavailable");
    const callsBefore = await chargeCalls();
    const error = await coreRefusal(submit(second, "4242424242424242"));
    expect(error.code).toBe("payment_link_not_payable");
    expect(await chargeCalls()).toBe(callsBefore);
    expect(await payment(second)).toMatchObject({ status: "created", authorized_at: null });
    // The first one's late answer takes the link's only payment; the second stays refused, never authorized.
    await expect.poll(async () => (await payment(first)).status, { timeout: 10_000, interval: 100 }).toBe("captured");
    expect((await coreRefusal(submit(second, "4242424242424242"))).code).toBe("payment_link_not_payable");
    expect(await chargeCalls()).toBe(callsBefore);
    expect(await payment(second)).toMatchObject({ status: "created", authorized_at: null });
  });
});

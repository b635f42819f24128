// The SDK's methods against the real stack: `for await` over a list of 1 000 payments yields each once,
// newest first, even while payments are created meanwhile; and each resource method reaches its
// route and answers the API's object (payments, links, refunds, events, balance, payouts, chargebacks).
import { beforeAll, describe, expect, test } from "vitest";
import { Paytami, type Payment } from "../facade/sdk/src/index.ts";
import { modeCodec } from "../proto/enums.ts";
import { useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";

const getStack = useStack({ env: { PAYOUT_SCHEDULE: "off" } });
const TEST = modeCodec.fromWire("test");
const body = { amount: "10000", currency: "GTQ", method_type: "card", success_url: "https://shop.example.com/ok", cancel_url: "https://shop.example.com/no" };

const ordered = async (m: Merchant) =>
  (await getStack().sql<{ id: string }>("select id from payments where merchant_id = $1 order by created_at desc, seq desc", [m.merchantId])).map((r) => r.id);

describe("auto-paging", () => {
  let merchant: Merchant;
  let paytami: Paytami;
  /** The merchant's payment ids in the API's order: created_at desc, then the internal sequence desc. */
  let expected: string[];

  beforeAll(async () => {
    merchant = await getStack().admin.createMerchant({ name: "Tienda Mil" });
    paytami = new Paytami(merchant.testApiKey, { baseUrl: getStack().baseUrl });
    // 1 000 payments through the API, eight at a time (many share a millisecond: the sequence orders them).
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 1000) {
          next++;
          await paytami.payments.create({ ...body, amount: String(10_000 + next) });
        }
      }),
    );
    expected = await ordered(merchant);
    expect(expected).toHaveLength(1000);
  }, 180_000);

  test("for await over 1 000 payments yields each once, in order, page after page", async () => {
    const seen: string[] = [];
    for await (const payment of paytami.payments.list({ limit: 100 })) seen.push(payment.id);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect(seen).toEqual(expected);
  });

  test("payments created while iterating neither shift the pages nor repeat an item", async () => {
    const seen: string[] = [];
    let created = 0;
    for await (const payment of paytami.payments.list({ limit: 37 })) {
      seen.push(payment.id);
      // Newer than every page still to come: never among them.
      if (seen.length % 150 === 0 && created < 3) {
        await paytami.payments.create(body);
        created++;
      }
    }
    expect(created).toBe(3);
    expect(seen).toEqual(expected);
  });

  test("awaited, a list is one page; starting_after and filters pass through; toArray stops at its bound", async () => {
    const expected = await ordered(merchant); // the 1 000 and those the test before created
    const page = await paytami.payments.list({ limit: 10 });
    expect(page.data.map((p: Payment) => p.id)).toEqual(expected.slice(0, 10));
    expect(page.has_more).toBe(true);
    const after = await paytami.payments.list({ limit: 5, starting_after: expected[9] });
    expect(after.data.map((p) => p.id)).toEqual(expected.slice(10, 15));
    expect((await paytami.payments.list({ status: "captured" })).data).toEqual([]);
    expect((await paytami.payments.list({ limit: 100 }).toArray(250)).map((p) => p.id)).toEqual(expected.slice(0, 250));
  });
});

describe("every resource", () => {
  test("payments, links, refunds, events, balance, payouts and chargebacks reach their routes", async () => {
    const { admin, core } = getStack();
    const m = await admin.createMerchant({ name: "Tienda Recursos" });
    const paytami = new Paytami(m.testApiKey, { baseUrl: getStack().baseUrl });

    const payment = await paytami.payments.create({ ...body, description: "Pedido 17" });
    expect(payment).toMatchObject({ status: "created", amount: "10000", description: "Pedido 17" });
    expect(await paytami.payments.retrieve(payment.id)).toEqual(payment);
    expect(await paytami.payments.checkoutSession(payment.id)).toMatchObject({ payment_id: payment.id, payable: true });
    const canceled = await paytami.payments.cancel(payment.id);
    expect(canceled.status).toBe("canceled");
    expect(await paytami.payments.checkoutSession(payment.id)).toEqual({ payment_id: payment.id, payable: false, reason: "canceled" });

    const link = await paytami.links.create({ title: "Donación", currency: "GTQ", min_amount_minor: "1000", max_amount_minor: "50000" });
    expect((await paytami.links.list()).data.map((l) => l.id)).toEqual([link.id]);
    expect(await paytami.links.retrieve(link.id)).toMatchObject({ title: "Donación", amount_type: "variable", payable: true });
    const fromLink = await paytami.links.pay(link.id, { amount: "2500", method_type: "card" });
    expect(fromLink).toMatchObject({ amount: "2500", status: "created" });

    const paid = await paytami.payments.create(body);
    await admin.simulate(paid.id, "succeed");
    const refund = await paytami.refunds.create({ payment_id: paid.id, amount: "4000" });
    expect(refund).toMatchObject({ payment_id: paid.id, amount: "4000", reason: "requested_by_customer", status: "succeeded" });
    expect(await paytami.refunds.retrieve(refund.id)).toEqual(refund);
    expect((await paytami.refunds.list({ payment_id: paid.id })).data).toEqual([refund]);

    const events = await paytami.events.list({ type: "refund.succeeded" }).toArray();
    expect(events.map((e) => e.data.id)).toEqual([refund.id]);
    expect(await paytami.events.retrieve(events[0]!.id)).toEqual(events[0]);

    await admin.simulate(paid.id, "settle");
    await core.payouts.addBankAccount({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ", account_number: "000123456789" });
    const { payout } = await core.payouts.requestPayout({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ" });
    expect((await paytami.payouts.list()).data.map((p) => p.id)).toEqual([payout!.id]);
    expect(await paytami.payouts.retrieve(payout!.id)).toMatchObject({ id: payout!.id, status: "completed", bank_account_masked: "****6789" });

    const disputed = await paytami.payments.create(body);
    await admin.simulate(disputed.id, "succeed");
    const { chargeback } = await core.payouts.simulateChargeback({ payment_id: disputed.id, action: "open" });
    expect(await paytami.chargebacks.retrieve(chargeback!.id)).toEqual({ ...chargeback, status: "opened" });
    expect((await paytami.chargebacks.list()).data.map((c) => c.id)).toEqual([chargeback!.id]);

    const balance = await paytami.balance.retrieve();
    expect(balance.mode).toBe("test");
    expect(balance.balances.map((b) => b.currency)).toEqual(["GTQ", "USD"]);
    expect(balance.balances[0]!.in_transit).toBe("0");
    await expect(paytami.payouts.retrieve("payout_000000000000000000000000")).rejects.toMatchObject({ code: "validation_error", status: 404 });
  });
});

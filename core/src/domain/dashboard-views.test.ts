// The dashboard's read views on a real database with the test's clock: the filtered payments list
// and its keyset pages, one payment in full, the home summary, a link's payments and the CSV export.
// Isolation: nothing of another merchant or mode shows, whatever ids are sent.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { dashboard } from "../operations/dashboard.ts";
import { presentApiKey } from "./api-keys.ts";
import { merchantCaller, OPERATOR, PUBLIC, type MerchantCaller } from "./caller.ts";
import { submitCard } from "./checkout-attempts.ts";
import { createLink } from "./links.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { datesEndingWith, dateIn } from "./home-summary.ts";
import { createMerchant, type CreatedMerchant } from "./merchants.ts";
import { runOperation } from "./operation.ts";
import { payLink } from "./pay-link.ts";
import { refundPayment } from "./refunds.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";
import { recordAttempts, recordDeliveries } from "./webhook-deliveries.ts";
import { createEndpoint } from "./webhook-endpoints.ts";

let database: MigratedDatabase | undefined;
let clock = new Date("2026-11-20T15:00:00.000Z");
let deps: CoreDeps;
let shop: CreatedMerchant;
let other: CreatedMerchant;
let as: MerchantCaller;
const at = (iso: string) => (clock = new Date(iso));

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 6, now: () => clock });
  deps = { ...database.deps, config: { ...database.deps.config, dashboardViews: { ...database.deps.config.dashboardViews, exportBatch: 3 } } };
  const newMerchant = (name: string) => inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name, currencies: [], methods: [] }));
  shop = await newMerchant("Tienda");
  other = await newMerchant("Otra");
  as = merchantCaller(shop.merchantId, "test", "operator");
});
afterAll(() => database?.close());

let n = 0;
interface NewPayment {
  amount?: string;
  currency?: string;
  method?: string;
  email?: string;
  name?: string;
  description?: string;
  key?: string;
}
async function pay(p: NewPayment = {}): Promise<string> {
  const input = {
    amount: p.amount ?? "10000",
    currency: p.currency ?? "GTQ",
    method_type: p.method ?? "card",
    success_url: "https://shop.example/ok",
    cancel_url: "https://shop.example/no",
    ...(p.description ? { description: p.description } : {}),
    ...(p.email || p.name ? { customer: { ...(p.email ? { email: p.email } : {}), ...(p.name ? { name: p.name } : {}) } } : {}),
  };
  const created = await withoutTransaction(deps, (tx) =>
    createPayment(deps, tx, presentApiKey(p.key ?? shop.testApiKey), { idempotencyKey: `dashboard-${n++}`, input }),
  );
  return created.value.id;
}
async function capture(id: string): Promise<void> {
  await withoutTransaction(deps, (tx) =>
    submitCard(deps, tx, PUBLIC, { paymentId: id, card: { number: "4242424242424242", exp_month: 1, exp_year: 2031, cvc: "999", holder_name: "A" } }),
  );
}
const list = (input: Record<string, unknown>, caller?: MerchantCaller) => runOperation(deps, dashboard.listPayments, caller ?? as, input);
const failure = (work: Promise<unknown>) =>
  work.then(
    () => "ok",
    (error: unknown) => (error instanceof DomainError ? `${error.code}: ${error.message}` : String(error)),
  );

// Payments of the shop over three days (Guatemala is UTC-6), newest last.
const ids: Record<string, string> = {};
let endpointId: string;
beforeAll(async () => {
  at("2026-11-18T16:00:00.000Z");
  const endpoint = await createEndpoint(deps, deps.orm.em.fork(), merchantCaller(shop.merchantId, "test"), {
    url: "http://127.0.0.1:9/hooks",
    enabledEvents: [],
  });
  endpointId = endpoint.endpoint.id;
  ids.usd = await pay({ currency: "USD", amount: "2500", email: "Bob@Example.com", description: '=HYPERLINK("http://evil")' });
  at("2026-11-19T03:00:00.000Z"); // 2026-11-18 21:00 in Guatemala
  ids.late = await pay({ email: "ana@shop.example", name: '+Ana, "la" jefa' });
  await capture(ids.late);
  at("2026-11-19T15:00:00.000Z");
  ids.bank = await pay({ method: "bank_transfer", amount: "50000", email: "ana_b@shop.example" });
  at("2026-11-20T15:00:00.000Z");
  ids.captured = await pay({ amount: "15000", email: "carla@shop.example", description: "Pedido 42" });
  await capture(ids.captured);
  ids.foreign = await pay({ key: other.testApiKey, email: "ana@shop.example" });
  ids.live = await pay({ key: shop.liveApiKey, email: "ana@shop.example" });
});

describe("payments list", () => {
  test("newest first, every filter, and keyset pages that cover the list once", async () => {
    const all = await list({});
    expect(all.data.map((p) => p.id)).toEqual([ids.captured, ids.bank, ids.late, ids.usd]);
    expect(all.data[0]).toMatchObject({
      status: "captured",
      amount: "15000",
      amount_formatted: "Q 150.00",
      customer_email: "carla@shop.example",
      method_type: "card",
    });
    expect((await list({ status: "captured" })).data.map((p) => p.id)).toEqual([ids.captured, ids.late]);
    expect((await list({ currency: "USD" })).data.map((p) => p.id)).toEqual([ids.usd]);
    expect((await list({ method: "bank_transfer" })).data.map((p) => p.id)).toEqual([ids.bank]);
    const range = { created_from: "2026-11-18T21:00:00-06:00", created_to: "2026-11-20T15:00:00Z" };
    expect((await list(range)).data.map((p) => p.id)).toEqual([ids.bank, ids.late]);
    expect((await list({ ...range, status: "captured" })).data.map((p) => p.id)).toEqual([ids.late]);

    const first = await list({ limit: 3 });
    expect(first.has_more).toBe(true);
    const second = await list({ limit: 3, starting_after: first.data[2]!.id });
    expect([...first.data, ...second.data].map((p) => p.id)).toEqual(all.data.map((p) => p.id));
    expect(second.has_more).toBe(false);
  });

  test("search: a payment id exactly, or an e-mail prefix case-insensitively (wildcards are literal)", async () => {
    expect((await list({ search: ids.bank })).data.map((p) => p.id)).toEqual([ids.bank]);
    expect((await list({ search: "ANA" })).data.map((p) => p.id)).toEqual([ids.bank, ids.late]);
    expect((await list({ search: "bob@example.COM" })).data.map((p) => p.id)).toEqual([ids.usd]);
    expect((await list({ search: "ana_" })).data.map((p) => p.id)).toEqual([ids.bank]);
    expect((await list({ search: "%" })).data).toEqual([]);
    expect((await list({ search: "shop.example" })).data).toEqual([]);
  });

  test("another merchant's or mode's payments never show, whatever is sent", async () => {
    expect((await list({ search: ids.foreign })).data).toEqual([]);
    expect((await list({ search: ids.live })).data).toEqual([]);
    expect(await failure(list({ starting_after: ids.foreign }))).toBe("validation_error: starting_after must be the id of one of your payments.");
    const live = await list({}, merchantCaller(shop.merchantId, "live", "operator"));
    expect(live.data.map((p) => p.id)).toEqual([ids.live]);
  });

  test("a bad filter is a validation_error naming it", async () => {
    expect(await failure(list({ status: "paid" }))).toMatch(/^validation_error: status must be one of created/);
    expect(await failure(list({ currency: "EUR" }))).toBe("validation_error: currency must be one of GTQ, USD.");
    expect(await failure(list({ method: "cash" }))).toBe("validation_error: method must be one of card, bank_transfer.");
    expect(await failure(list({ created_from: "2026-11-18" }))).toMatch(/^validation_error: created_from must be an ISO 8601 time/);
    expect(await failure(list({ created_from: "2026-11-20T00:00:00Z", created_to: "2026-11-19T00:00:00Z" }))).toBe(
      "validation_error: created_from must be before created_to.",
    );
    expect(await failure(list({ limit: 101 }))).toBe("validation_error: limit must be an integer from 1 to 100.");
  });

  test("a dashboard session of any role reads it; the runner checks the role is there", async () => {
    const viewer: MerchantCaller = { ...merchantCaller(shop.merchantId, "test", "session"), role: "viewer" };
    expect((await list({}, viewer)).data).toHaveLength(4);
    expect(await failure(list({}, merchantCaller(shop.merchantId, "test", "session")))).toMatch(/^unauthorized/);
    expect(await failure(runOperation(deps, dashboard.listPayments, presentApiKey(shop.testApiKey), {}))).toMatch(/^unauthorized/);
  });
});

describe("payment detail", () => {
  test("amounts, fee and net, the timeline, refunds, events with their deliveries, the ledger", async () => {
    at("2026-11-20T16:00:00.000Z");
    await inTransaction(deps, (tx) => refundPayment(deps, tx, ids.captured!, 5000n, "duplicate_charge"));
    const events = await db(deps.orm.em.fork()).selectFrom("outbox_events").select("id").where("merchant_id", "=", shop.merchantId).execute();
    await inTransaction(deps, (tx) =>
      recordDeliveries(
        deps,
        tx,
        OPERATOR,
        events.map((e) => e.id),
      ),
    );
    const deliveries = await db(deps.orm.em.fork()).selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", endpointId).execute();
    await inTransaction(deps, (tx) =>
      recordAttempts(
        deps,
        tx,
        OPERATOR,
        deliveries.map((d) => ({ deliveryId: d.id, attemptedAt: clock, httpStatus: 500, latencyMs: 4, responseExcerpt: "no" })),
      ),
    );

    const detail = await runOperation(deps, dashboard.paymentDetail, as, ids.captured!);
    expect(detail.payment).toMatchObject({ id: ids.captured, status: "partially_refunded", amount: "15000", description: "Pedido 42" });
    // Card fee: 3.50 % of 15000 + 200 = 725.
    expect(detail.fee).toEqual({ minor: "725", decimal: "7.25", formatted: "Q 7.25" });
    expect(detail.net).toEqual({ minor: "14275", decimal: "142.75", formatted: "Q 142.75" });
    expect(detail.refunded).toEqual({ minor: "5000", decimal: "50.00", formatted: "Q 50.00" });
    expect(detail.customer).toEqual({ email: "carla@shop.example", name: null });
    expect(detail.card).toEqual({ brand: "visa", last4: "4242" });
    expect(detail.timeline.map((t) => t.state)).toEqual(expect.arrayContaining(["created", "authorized", "succeeded"]));
    expect(detail.timeline[0]).toEqual({ state: "created", at: "2026-11-20T15:00:00.000Z" });
    expect(detail.refunds).toEqual([expect.objectContaining({ payment_id: ids.captured, amount: "5000", reason: "duplicate_charge" })]);
    expect(detail.events.map((e) => e.type)).toEqual(["payment.succeeded", "refund.succeeded"]);
    for (const event of detail.events) {
      expect(event.deliveries).toEqual([expect.objectContaining({ endpoint_id: endpointId, status: "pending", attempt_count: 1, last_http_status: 500 })]);
    }
    expect(detail.ledger.map((t) => t.kind)).toEqual(["capture", "refund"]);
    expect(detail.ledger[0]!.lines).toEqual(expect.arrayContaining([{ account: "merchant_pending", amount: "14275" }]));

    const plain = await runOperation(deps, dashboard.paymentDetail, as, ids.bank!);
    expect(plain).toMatchObject({ refunds: [], events: [], ledger: [], card: null, timeline: [{ state: "created" }] });
  });

  test("another merchant's or mode's payment answers like a missing one", async () => {
    for (const id of [ids.foreign!, ids.live!, "pay_000000000000000000000000", "nonsense"]) {
      expect(await failure(runOperation(deps, dashboard.paymentDetail, as, id))).toBe("unknown_payment: No such payment.");
    }
  });
});

describe("home summary", () => {
  test("the merchant's days", () => {
    expect(dateIn("America/Guatemala", new Date("2026-11-19T03:00:00Z"))).toBe("2026-11-18");
    expect(datesEndingWith("2026-03-02", 3)).toEqual(["2026-02-28", "2026-03-01", "2026-03-02"]);
  });

  test("balances, 30 days of succeeded volume by the merchant's day, recent payments, failing deliveries", async () => {
    at("2026-11-20T18:00:00.000Z");
    const home = await runOperation(deps, dashboard.homeSummary, as, undefined);
    expect(home.time_zone).toBe("America/Guatemala");
    const gtq = home.volume.find((v) => v.currency === "GTQ")!;
    expect(gtq.days).toHaveLength(30);
    expect(gtq.days.at(-1)).toEqual({ date: "2026-11-20", amount: "15000", count: 1 });
    // Created 2026-11-19T03:00Z: the 18th in Guatemala.
    expect(gtq.days.at(-3)).toEqual({ date: "2026-11-18", amount: "10000", count: 1 });
    expect(gtq.days.at(-2)).toEqual({ date: "2026-11-19", amount: "0", count: 0 });
    expect(gtq.total).toEqual({ minor: "25000", decimal: "250.00", formatted: "Q 250.00" });
    expect(home.volume.find((v) => v.currency === "USD")).toMatchObject({ count: 0, total: { minor: "0" } });
    const balance = home.balances.find((b) => b.currency === "GTQ")!;
    // Nets 9450 + 14275, less the 5000 refunded.
    expect(balance).toMatchObject({ pending: "18725", pending_formatted: "Q 187.25", available: "0" });
    expect(home.recent_payments.map((p) => p.id)).toEqual([ids.captured, ids.bank, ids.late, ids.usd]);
    expect(home.failing_deliveries.count).toBeGreaterThanOrEqual(2);
    expect(home.failing_deliveries.newest).toMatchObject({ status: "pending", attempt_count: 1, last_http_status: 500 });

    at("2026-11-22T18:00:00.000Z");
    const later = await runOperation(deps, dashboard.homeSummary, as, undefined);
    expect(later.failing_deliveries).toEqual({ count: 0, since: "2026-11-21T18:00:00.000Z", newest: null });
    const other_ = await runOperation(deps, dashboard.homeSummary, merchantCaller(other.merchantId, "test", "operator"), undefined);
    expect(other_.recent_payments.map((p) => p.id)).toEqual([ids.foreign]);
    expect(other_.failing_deliveries.count).toBe(0);
  });
});

describe("a link's payments", () => {
  test("the payments made through the link, newest first; another merchant's link is unknown", async () => {
    at("2026-11-21T10:00:00.000Z");
    const link = await inTransaction(deps, (tx) =>
      createLink(deps, tx, as, { input: { title: "Camisa", currency: "GTQ", min_amount_minor: "1000", max_amount_minor: "9000" } }),
    );
    const linkId = link.value.id;
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      at(`2026-11-21T10:0${i + 1}:00.000Z`);
      const paid = await withoutTransaction(deps, (tx) =>
        payLink(deps, tx, PUBLIC, { linkId, clientIp: "203.0.113.9", idempotencyKey: `link-pay-${i}`, input: { amount: "7500", method_type: "card" } }),
      );
      made.unshift(paid.value.id);
    }
    const page = await runOperation(deps, dashboard.linkPayments, as, { id: linkId, limit: 2 });
    expect(page.data.map((p) => p.id)).toEqual(made.slice(0, 2));
    expect(page.data[0]).toMatchObject({ link_id: linkId, amount: "7500" });
    const rest = await runOperation(deps, dashboard.linkPayments, as, { id: linkId, starting_after: page.data[1]!.id });
    expect(rest).toMatchObject({ data: [{ id: made[2] }], has_more: false });
    const foreign = merchantCaller(other.merchantId, "test", "operator");
    expect(await failure(runOperation(deps, dashboard.linkPayments, foreign, { id: linkId }))).toBe("unknown_payment_link: No such payment link.");
  });
});

describe("CSV export", () => {
  async function csv(input: Record<string, unknown>, caller: MerchantCaller = as): Promise<string> {
    const out = await runOperation(deps, dashboard.exportPayments, caller, input);
    let text = "";
    for await (const chunk of out.chunks) text += chunk;
    return text;
  }

  test("a header, every matching payment across batches, decimal amounts, formulas made inert", async () => {
    const text = await csv({ created_to: "2026-11-21T00:00:00Z" });
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("id,created_at,status,currency,method_type,amount,service_fee,net_amount,customer_email,customer_name,description,link_id");
    expect(lines.at(-1)).toBe("");
    // Four payments in batches of three.
    expect(lines.slice(1, -1).map((l) => l.slice(0, 28))).toEqual([ids.captured, ids.bank, ids.late, ids.usd]);
    expect(lines[1]).toBe(`${ids.captured},2026-11-20T15:00:00.000Z,partially_refunded,GTQ,card,150.00,7.25,142.75,carla@shop.example,,Pedido 42,`);
    expect(lines[3]).toContain(`,"'+Ana, ""la"" jefa",`);
    expect(lines[4]).toContain(`,USD,card,25.00,`);
    expect(lines[4]).toContain(`,"'=HYPERLINK(""http://evil"")",`);
  });

  test("the filters of the list; nothing of another merchant; a bad filter refused before any row", async () => {
    expect(
      (await csv({ status: "captured" }))
        .split("\r\n")
        .slice(1, -1)
        .map((l) => l.slice(0, 28)),
    ).toEqual([ids.late]);
    expect(await csv({ search: ids.foreign })).toBe(
      "id,created_at,status,currency,method_type,amount,service_fee,net_amount,customer_email,customer_name,description,link_id\r\n",
    );
    expect(await failure(csv({ currency: "EUR" }))).toBe("validation_error: currency must be one of GTQ, USD.");
  });
});

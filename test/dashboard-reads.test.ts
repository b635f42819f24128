// The dashboard's read views across processes: payments made through REST, read back by a signed-in
// dashboard user through the core's dashboard procedures (called as the facade calls them) and
// exported as CSV through the facade. One merchant never sees another's objects, and test and live
// never mix, whatever ids are sent.
import { beforeAll, describe, expect, test } from "vitest";
import { dashMutation, dashQuery, seedUser, signedIn } from "./support/dashboard.ts";
import { createOk, driveToState, useStack } from "./support/expect.ts";
import { newIdemKey } from "./support/http.ts";
import type { Merchant } from "./support/stack.ts";
import { trpcClient } from "./support/trpc.ts";

const stack = useStack();
let m: Merchant;
let other: Merchant;
let session: string;
let otherSession: string;
const made: Record<string, any> = {};

const HEADER = "id,created_at,status,currency,method_type,amount,service_fee,net_amount,customer_email,customer_name,description,link_id";

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Panel" });
  other = await stack().admin.createMerchant({ name: "Otra Tienda" });
  session = await signedIn(stack(), await seedUser(stack(), m.merchantId, "viewer"));
  otherSession = await signedIn(stack(), await seedUser(stack(), other.merchantId, "viewer"));
  made.open = await createOk(stack().http, m.testApiKey, { amount: "5000", customer: { email: "Zoe@Example.com" } });
  made.paid = await createOk(stack().http, m.testApiKey, {
    amount: "25000",
    description: '=HYPERLINK("http://evil.example")',
    customer: { email: "ana@tienda.example", name: "Ana López" },
  });
  await driveToState(stack(), made.paid.id, "captured");
  const refund = await stack().http.post("/v1/refunds", { key: m.testApiKey, idem: newIdemKey(), body: { payment_id: made.paid.id, amount: "4000" } });
  expect(refund.status, refund.text).toBe(201);
  made.refund = refund.json;
  made.usd = await createOk(stack().http, m.testApiKey, { amount: "1500", currency: "USD", customer: { email: "bob@example.com" } });
  made.foreign = await createOk(stack().http, other.testApiKey, { customer: { email: "ana@tienda.example" } });
  made.live = await createOk(stack().http, m.liveApiKey, { success_url: "https://shop.example.com/ok", cancel_url: "https://shop.example.com/no" });
});

const list = async (input: Record<string, unknown> = {}, token = session) => {
  const answer = await dashQuery(stack(), "payments.list", input, { session: token });
  expect(answer.status, answer.message).toBe(200);
  return answer.data as { data: any[]; has_more: boolean };
};

describe("payments", () => {
  test("a payment made through REST is in the list and its detail with the API's amounts, refunds and ledger", async () => {
    const page = await list();
    expect(page.data.map((p) => p.id)).toEqual([made.usd.id, made.paid.id, made.open.id]);
    const rest = (await stack().http.getPayment(m.testApiKey, made.paid.id)).json;
    const listed = page.data[1];
    expect(listed).toMatchObject({ ...rest, customer_email: "ana@tienda.example", customer_name: "Ana López", amount_formatted: "Q 250.00" });

    const detail = await dashQuery(stack(), "payments.get", { id: made.paid.id }, { session });
    expect(detail.status).toBe(200);
    expect(detail.data.payment).toEqual(rest);
    expect(detail.data.fee).toEqual({ minor: rest.service_fee, decimal: "10.75", formatted: "Q 10.75" });
    expect(detail.data.net).toEqual({ minor: rest.net_amount, decimal: "239.25", formatted: "Q 239.25" });
    expect(detail.data.refunds).toEqual([made.refund]);
    expect(detail.data.timeline.map((t: any) => t.state)).toEqual(expect.arrayContaining(["created", "succeeded"]));
    expect(detail.data.events.map((e: any) => e.type)).toEqual(["payment.succeeded", "refund.succeeded"]);
    const operator = trpcClient(stack(), stack().internalToken);
    const ledger = await operator.ledger.paymentTransactions.query({ payment_id: made.paid.id });
    expect(detail.data.ledger).toEqual(ledger.transactions);
    // The operator's view of the same operation answers the same.
    expect(await operator.views.payment.query({ merchant_id: m.merchantId, mode: "test", id: made.paid.id })).toEqual(detail.data);
  });

  test("filters, search and keyset pages", async () => {
    expect((await list({ status: "partially_refunded" })).data.map((p) => p.id)).toEqual([made.paid.id]);
    expect((await list({ currency: "USD" })).data.map((p) => p.id)).toEqual([made.usd.id]);
    expect((await list({ search: "zoe@EXAMPLE" })).data.map((p) => p.id)).toEqual([made.open.id]);
    expect((await list({ search: made.paid.id })).data.map((p) => p.id)).toEqual([made.paid.id]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await list({ created_from: future })).data).toEqual([]);
    expect((await list({ created_from: made.paid.created_at, created_to: made.usd.created_at })).data.map((p) => p.id)).toEqual([made.paid.id]);
    const first = await list({ limit: 2 });
    const second = await list({ limit: 2, starting_after: first.data[1].id });
    expect({ first: first.has_more, second: second.has_more }).toEqual({ first: true, second: false });
    expect([...first.data, ...second.data].map((p) => p.id)).toEqual([made.usd.id, made.paid.id, made.open.id]);
    const bad = await dashQuery(stack(), "payments.list", { method: "cash" }, { session });
    expect({ status: bad.status, code: bad.code }).toEqual({ status: 400, code: "validation_error" });
  });

  test("another merchant's and the other mode's payments never show, whatever ids are sent", async () => {
    for (const id of [made.foreign.id, made.live.id]) {
      const got = await dashQuery(stack(), "payments.get", { id }, { session });
      expect({ status: got.status, code: got.code }).toEqual({ status: 404, code: "unknown_payment" });
      expect((await list({ search: id })).data).toEqual([]);
      const after = await dashQuery(stack(), "payments.list", { starting_after: id }, { session });
      expect(after.code).toBe("validation_error");
    }
    // A merchant or mode in the input is refused, not obeyed.
    const smuggled = await dashQuery(stack(), "payments.list", { merchant_id: other.merchantId }, { session });
    expect(smuggled.code).toBe("validation_error");
    expect((await list({}, otherSession)).data.map((p) => p.id)).toEqual([made.foreign.id]);
    // The same user in live mode sees only live payments.
    const live = await signedIn(stack(), await seedUser(stack(), m.merchantId, "viewer"));
    expect((await dashMutation(stack(), "auth.switchMode", { mode: "live" }, { session: live })).status).toBe(200);
    expect((await list({}, live)).data.map((p) => p.id)).toEqual([made.live.id]);
    // No session, no views.
    expect((await dashQuery(stack(), "payments.list", {}, {})).code).toBe("unauthorized");
  });
});

describe("home, links, balances and payouts", () => {
  test("home summary: balances, today's volume, recent payments", async () => {
    const home = await dashQuery(stack(), "home.summary", undefined, { session });
    expect(home.status).toBe(200);
    expect(home.data.time_zone).toBe("America/Guatemala");
    expect(home.data.recent_payments.map((p: any) => p.id)).toEqual([made.usd.id, made.paid.id, made.open.id]);
    const gtq = home.data.volume.find((v: any) => v.currency === "GTQ");
    expect(gtq).toMatchObject({ count: 1, total: { minor: "25000", formatted: "Q 250.00" } });
    expect(gtq.days).toHaveLength(30);
    const balances = await dashQuery(stack(), "balances.show", undefined, { session });
    const gtqBalance = home.data.balances.find((b: any) => b.currency === "GTQ");
    expect(gtqBalance).toMatchObject(balances.data.balances.find((b: any) => b.currency === "GTQ"));
    // Net 23925 less the 4000 refunded, pending until settlement.
    expect(gtqBalance).toMatchObject({ pending: "19925", pending_formatted: "Q 199.25" });
    expect(home.data.failing_deliveries).toMatchObject({ count: 0, newest: null });
  });

  test("links with their counts and payments; another merchant's link is unknown", async () => {
    const created = await stack().http.post("/v1/payment_links", {
      key: m.testApiKey,
      idem: newIdemKey(),
      body: { title: "Camisa", currency: "GTQ", fixed_amount_minor: "7500" },
    });
    expect(created.status, created.text).toBe(201);
    const link = created.json;
    const paid = await stack().http.post(`/v1/payment_links/${link.id}/pay`, { idem: newIdemKey(), body: { method_type: "card" } });
    expect(paid.status, paid.text).toBe(201);
    const listed = await dashQuery(stack(), "links.list", {}, { session });
    expect(listed.data.data.map((l: any) => [l.id, l.state])).toEqual([[link.id, "active"]]);
    const got = await dashQuery(stack(), "links.get", { id: link.id }, { session });
    expect(got.data).toMatchObject({ ...link, state: "active" });
    const payments = await dashQuery(stack(), "links.payments", { id: link.id }, { session });
    expect(payments.data).toMatchObject({ data: [{ id: paid.json.id, link_id: link.id, amount: "7500" }], has_more: false });
    for (const path of ["links.get", "links.payments"]) {
      expect((await dashQuery(stack(), path, { id: link.id }, { session: otherSession })).code).toBe("unknown_payment_link");
    }
  });

  test("payouts and bank accounts: the session's merchant only, numbers masked", async () => {
    const operator = trpcClient(stack(), stack().internalToken);
    await operator.bankAccounts.add.mutate({ merchant_id: m.merchantId, mode: "test", currency: "GTQ", account_number: "0012345678" });
    const accounts = await dashQuery(stack(), "bankAccounts.list", undefined, { session });
    expect(accounts.data.data).toEqual([expect.objectContaining({ currency: "GTQ", masked: "****5678" })]);
    expect(JSON.stringify(accounts.data)).not.toContain("0012345678");
    expect((await dashQuery(stack(), "bankAccounts.list", undefined, { session: otherSession })).data).toEqual({ data: [] });
    expect((await dashQuery(stack(), "payouts.list", {}, { session })).data).toEqual({ data: [], has_more: false });
    expect((await dashQuery(stack(), "payouts.get", { id: "payout_000000000000000000000000" }, { session })).code).toBe("validation_error");
  });
});

describe("CSV export through the facade", () => {
  const download = (query: string, cookie?: string) =>
    fetch(`${stack().baseUrl}/dashboard/export/payments.csv${query}`, { headers: cookie ? { cookie: `paytami_session=${cookie}` } : {} });

  test("the filtered list as CSV: header, decimal amounts, formulas inert, nothing of another merchant", async () => {
    const res = await download("?status=partially_refunded", session);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="payments-test-\d{4}-\d\d-\d\d\.csv"$/);
    expect(res.headers.get("x-paytami-session-clear")).toBeNull();
    const text = await res.text();
    expect(text).toBe(
      `${HEADER}\r\n${made.paid.id},${made.paid.created_at},partially_refunded,GTQ,card,250.00,10.75,239.25,ana@tienda.example,Ana López,"'=HYPERLINK(""http://evil.example"")",\r\n`,
    );
    expect(await (await download(`?search=${made.foreign.id}`, session)).text()).toBe(`${HEADER}\r\n`);
    const all = (await (await download("", session)).text()).split("\r\n").slice(1, -1);
    // Every payment of the list (the link's too), in its order.
    expect(all.map((line) => line.slice(0, 28))).toEqual((await list({ limit: 100 })).data.map((p) => p.id));
  });

  test("refused without a session (and the ended one's cookie cleared), and for a bad filter, before any row", async () => {
    const anonymous = await download("");
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "unauthorized" } });
    const ended = await download("", "x".repeat(43));
    expect(ended.status).toBe(401);
    expect(ended.headers.get("set-cookie")).toMatch(/^paytami_session=; Path=\/; Max-Age=0/);
    for (const query of ["?currency=EUR", "?merchant_id=" + other.merchantId, "?status=created&status=captured"]) {
      const bad = await download(query, session);
      expect({ status: bad.status, body: await bad.json() }).toMatchObject({ status: 400, body: { error: { code: "validation_error" } } });
    }
    // The core's route wants the facade's credential, not the operator's.
    const direct = await fetch(`${stack().coreHttpUrl}/dashboard/export/payments.csv`, {
      headers: { authorization: `Bearer ${stack().internalToken}`, "x-paytami-session": session },
    });
    expect(direct.status).toBe(401);
  });

  test("a large export streams every row, in order, chunked", async () => {
    const big = await stack().admin.createMerchant({ name: "Tienda Grande" });
    const rows = 30_000;
    await stack().sql(
      `insert into payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount, customer_email,
                             success_url, cancel_url, created_at, updated_at, expires_at)
       select 'pay_' || lpad(to_hex(g), 24, '0'), $1, 'test', 'created', 'GTQ', 'card', 10000, 550, 9450, 'c' || g || '@example.com',
              'https://shop.example.com/ok', 'https://shop.example.com/no', t, t, t + interval '1 day'
       from generate_series(1, $2::int) g, lateral (select date_trunc('milliseconds', now() - g * interval '1 second') as t) ts`,
      [big.merchantId, rows],
    );
    const token = await signedIn(stack(), await seedUser(stack(), big.merchantId, "viewer"));
    const res = await download("", token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBeNull();
    let lines = 0;
    let chunks = 0;
    let previous = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) {
      chunks++;
      const text = previous + decoder.decode(chunk, { stream: true });
      const parts = text.split("\r\n");
      previous = parts.pop()!;
      lines += parts.length;
    }
    expect(previous).toBe("");
    expect(lines).toBe(rows + 1);
    expect(chunks).toBeGreaterThan(1);
  });
});

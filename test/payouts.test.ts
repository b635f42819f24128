// Chargebacks, bank accounts and payouts end to end: the real core, dispatcher and `paytami` CLI,
// balances read as sums of ledger lines, and the events arriving at a real webhook receiver with
// exactly the data shapes of spec 2.5 and 2.6.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CoreError } from "../proto/core-error.ts";
import { modeCodec } from "../proto/enums.ts";
import { CREATED_AT_RE, createOk, useStack } from "./support/expect.ts";
import { type Merchant } from "./support/stack.ts";
import { lastJson, runCliWith } from "./support/cli-run.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

const getStack = useStack({
  dispatcher: true,
  env: { PAYOUT_SCHEDULE: "off", OUTBOX_RELAY_INTERVAL: "50ms", DISPATCHER_POLL_INTERVAL: "100ms", WEBHOOK_RETRY_SCHEDULE: "0,200ms" },
});
const TEST = modeCodec.fromWire("test");
const CHARGEBACK_KEYS = ["id", "payment_id", "amount", "currency", "status"];
const PAYOUT_KEYS = [
  "id",
  "currency",
  "amount",
  "status",
  "bank_account_id",
  "bank_account_masked",
  "requested_at",
  "processing_at",
  "sent_to_bank_at",
  "completed_at",
  "failed_at",
  "canceled_at",
  "failure_reason",
];
let home: string;
let receiver: WebhookReceiver;
let merchant: Merchant;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-payouts-home-"));
  receiver = await new WebhookReceiver().start();
  merchant = await getStack().admin.createMerchant({ name: "Tienda Pagos" });
  await getStack().core.webhooks.createEndpoint({ merchant_id: merchant.merchantId, mode: TEST, url: receiver.url, enabled_events: [] });
});
afterAll(async () => {
  await receiver?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; json: any }> {
  return lastJson(runCliWith(getStack(), { home }, [...args, "--json"]));
}

/** The merchant's test-mode GTQ balances: sums of its ledger lines per account. */
async function balances(merchantId: string): Promise<{ pending: number; available: number; in_transit: number }> {
  const rows = await getStack().sql<{ account: string; total: string }>(
    "select account, sum(amount)::text as total from ledger_lines where merchant_id = $1 and mode = 'test' and currency = 'GTQ' and account like 'merchant_%' group by account",
    [merchantId],
  );
  const of = (account: string) => Number(rows.find((r) => r.account === account)?.total ?? 0);
  return { pending: of("merchant_pending"), available: of("merchant_available"), in_transit: of("merchant_in_transit") };
}

async function captured(m: Merchant, amount = "10000"): Promise<string> {
  const id = (await createOk(getStack().http, m.testApiKey, { amount })).id as string;
  await getStack().admin.simulate(id, "succeed");
  return id;
}

const statusOf = async (id: string) => (await getStack().sql<{ status: string }>("select status from payments where id = $1", [id]))[0]!.status;

/**
 * The data of the one event of `type` about object `id` the receiver got (waits for it). Its keys
 * are compared as a set: the outbox stores envelopes as jsonb, which keeps keys but not their
 * order (payment events too); the CLI's objects are checked for order.
 */
async function delivered(type: string, id: string): Promise<Record<string, unknown>> {
  const match = (body: Buffer) => {
    const envelope = JSON.parse(body.toString()) as { type: string; data: { id: string } };
    return envelope.type === type && envelope.data.id === id ? envelope.data : undefined;
  };
  await receiver.waitFor((requests) => requests.some((r) => match(r.body)), 30_000, `${type} for ${id}`);
  const found = receiver.requests.map((r) => match(r.body)).filter((data) => data !== undefined);
  expect(new Set(found.map((d) => JSON.stringify(d))).size).toBe(1);
  return found[0] as Record<string, unknown>;
}

const coreCode = (work: Promise<unknown>) =>
  work.then(
    () => "ok",
    (error: unknown) => (error instanceof CoreError ? `${error.code}: ${error.message}` : String(error)),
  );

describe("chargebacks", () => {
  test("on a captured payment: opened (balance debited) and won (re-credited), events with spec 2.5 exactly", async () => {
    const id = await captured(merchant);
    const before = await balances(merchant.merchantId);
    const opened = await cli(["simulate", "chargeback", id, "open"]);
    expect(opened.code).toBe(0);
    expect(Object.keys(opened.json)).toEqual(CHARGEBACK_KEYS);
    expect(opened.json).toMatchObject({ payment_id: id, amount: "10000", currency: "GTQ", status: "opened" });
    expect(opened.json.id).toMatch(/^chb_[0-9a-f]{24}$/);
    expect(await statusOf(id)).toBe("chargeback");
    expect(await balances(merchant.merchantId)).toEqual({ ...before, available: before.available - 10_000 });

    const won = await cli(["simulate", "chargeback", id, "win"]);
    expect(won.json).toEqual({ ...opened.json, status: "won" });
    expect(await statusOf(id)).toBe("captured");
    expect(await balances(merchant.merchantId)).toEqual(before);

    const openedEvent = await delivered("chargeback.opened", opened.json.id);
    expect(Object.keys(openedEvent).sort()).toEqual([...CHARGEBACK_KEYS].sort());
    expect(openedEvent).toEqual(opened.json);
    const wonEvent = await delivered("chargeback.won", opened.json.id);
    expect(Object.keys(wonEvent).sort()).toEqual([...CHARGEBACK_KEYS].sort());
    expect(wonEvent).toEqual(won.json);
  });

  test("on a settled payment: available goes down by the amount and comes back; the payment returns to available_to_merchant", async () => {
    const m = await getStack().admin.createMerchant({ name: "Tienda Disputa" });
    const id = await captured(m);
    await getStack().admin.simulate(id, "settle");
    expect(await balances(m.merchantId)).toEqual({ pending: 0, available: 9_450, in_transit: 0 });
    const { chargeback } = await getStack().core.payouts.simulateChargeback({ payment_id: id, action: "open" });
    expect(chargeback).toMatchObject({ amount: "10000", status: "opened" });
    expect(await statusOf(id)).toBe("chargeback");
    expect(await balances(m.merchantId)).toEqual({ pending: 0, available: -550, in_transit: 0 });
    await getStack().core.payouts.simulateChargeback({ payment_id: id, action: "win" });
    expect(await statusOf(id)).toBe("available_to_merchant");
    expect(await balances(m.merchantId)).toEqual({ pending: 0, available: 9_450, in_transit: 0 });
    const lines = await getStack().sql<{ kind: string; n: string }>(
      "select t.kind, count(l.*)::text as n from ledger_transactions t join ledger_lines l on l.transaction_id = t.id where t.payment_id = $1 and t.kind like 'chargeback%' and l.payment_id = $1 group by t.kind order by t.kind",
      [id],
    );
    expect(lines).toEqual([
      { kind: "chargeback_opened", n: "2" },
      { kind: "chargeback_won", n: "2" },
    ]);
  });

  test("refused on a payment that cannot be disputed, and a win without an open chargeback", async () => {
    const pending = (await createOk(getStack().http, merchant.testApiKey)).id as string;
    expect(await coreCode(getStack().core.payouts.simulateChargeback({ payment_id: pending, action: "open" }))).toMatch(
      /^payment_not_payable: .*status created/,
    );
    const id = await captured(merchant);
    expect(await coreCode(getStack().core.payouts.simulateChargeback({ payment_id: id, action: "win" }))).toMatch(/^payment_not_payable: .*status captured/);
    const cli1 = await cli(["simulate", "chargeback", pending, "open"]);
    expect(cli1).toMatchObject({ code: 1, json: { error: { code: "payment_not_payable" } } });
    expect(await statusOf(pending)).toBe("created");
    expect(await coreCode(getStack().core.payouts.simulateChargeback({ payment_id: "pay_000000000000000000000000", action: "open" }))).toMatch(
      /^unknown_payment/,
    );
  });
});

describe("bank accounts", () => {
  test("added and listed through the CLI, masked, the newest replacing the active one", async () => {
    const m = await getStack().admin.createMerchant({ name: "Tienda Cuentas" });
    const first = await cli([
      "bank-accounts",
      "add",
      "--merchant",
      m.merchantId,
      "--mode",
      "test",
      "--currency",
      "GTQ",
      "--number",
      "4444555566667777",
      "--bank-name",
      "Banco Uno",
    ]);
    expect(first.code).toBe(0);
    expect(first.json).toEqual({
      id: expect.stringMatching(/^ba_[0-9a-f]{24}$/),
      currency: "GTQ",
      bank_name: "Banco Uno",
      holder_name: "Tienda Cuentas",
      masked: "****7777",
      active: true,
      created_at: expect.stringMatching(CREATED_AT_RE),
    });
    const second = await cli([
      "bank-accounts",
      "add",
      "--merchant",
      m.merchantId,
      "--mode",
      "test",
      "--currency",
      "GTQ",
      "--number",
      "12341234",
      "--holder",
      "Ana López",
    ]);
    const listed = await cli(["bank-accounts", "list", "--merchant", m.merchantId]);
    expect(listed.json.data.map((a: any) => [a.id, a.active])).toEqual([
      [second.json.id, true],
      [first.json.id, false],
    ]);
    expect(JSON.stringify(listed.json)).not.toMatch(/4444555566667777|12341234/);
    const bad = await cli(["bank-accounts", "add", "--merchant", m.merchantId, "--mode", "test", "--currency", "GTQ", "--number", "12-34"]);
    expect(bad).toMatchObject({ code: 1, json: { error: { code: "validation_error" } } });
  });
});

describe("payouts", () => {
  test("the available balance paid out to the bank account: completed, payout.completed with spec 2.6 exactly", async () => {
    const m = await getStack().admin.createMerchant({ name: "Tienda Retiro" });
    await getStack().core.webhooks.createEndpoint({
      merchant_id: m.merchantId,
      mode: TEST,
      url: receiver.url,
      enabled_events: ["payout.completed", "payout.failed"],
    });
    for (const amount of ["10000", "20000"]) await getStack().admin.simulate(await captured(m, amount), "settle");
    await captured(m, "5000"); // still pending: not paid out
    const before = await balances(m.merchantId);
    expect(before.available).toBe(9_450 + 19_100);
    await cli(["bank-accounts", "add", "--merchant", m.merchantId, "--mode", "test", "--currency", "GTQ", "--number", "000123456789"]);
    const paid = await cli(["simulate", "payout", "--merchant", m.merchantId, "--currency", "GTQ"]);
    expect(paid.code).toBe(0);
    expect(Object.keys(paid.json)).toEqual(PAYOUT_KEYS);
    expect(paid.json).toMatchObject({
      currency: "GTQ",
      amount: String(before.available),
      status: "completed",
      bank_account_masked: "****6789",
      failed_at: null,
      canceled_at: null,
      failure_reason: null,
    });
    for (const stamp of ["requested_at", "processing_at", "sent_to_bank_at", "completed_at"]) expect(paid.json[stamp]).toMatch(CREATED_AT_RE);
    expect(await balances(m.merchantId)).toEqual({ pending: before.pending, available: 0, in_transit: 0 });
    const event = await delivered("payout.completed", paid.json.id);
    expect(Object.keys(event).sort()).toEqual([...PAYOUT_KEYS].sort());
    expect(event).toEqual(paid.json);
    expect((await cli(["payouts", "show", paid.json.id])).json).toEqual(paid.json);
    expect((await cli(["payouts", "list", "--merchant", m.merchantId])).json).toEqual({ data: [paid.json], has_more: false });

    const nothing = await cli(["simulate", "payout", "--merchant", m.merchantId, "--currency", "GTQ"]);
    expect(nothing).toMatchObject({ code: 1, json: { error: { code: "validation_error", message: expect.stringContaining("nothing available") } } });
  });

  test("an account ending in 0002 fails with account_closed: completed_at null, the money back in available, payout.failed", async () => {
    const m = await getStack().admin.createMerchant({ name: "Tienda Cerrada" });
    await getStack().core.webhooks.createEndpoint({ merchant_id: m.merchantId, mode: TEST, url: receiver.url, enabled_events: [] });
    await getStack().admin.simulate(await captured(m), "settle");
    expect(await coreCode(getStack().core.payouts.requestPayout({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ" }))).toBe(
      "validation_error: no bank account for GTQ",
    );
    await getStack().core.payouts.addBankAccount({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ", account_number: "7770002" });
    const { payout } = await getStack().core.payouts.requestPayout({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ" });
    expect(payout).toMatchObject({ amount: "9450", status: "failed", failure_reason: "account_closed", bank_account_masked: "****0002" });
    expect(payout!.completed_at).toBeUndefined();
    expect(await balances(m.merchantId)).toEqual({ pending: 0, available: 9_450, in_transit: 0 });
    const event = await delivered("payout.failed", payout!.id);
    expect(Object.keys(event).sort()).toEqual([...PAYOUT_KEYS].sort());
    expect(event).toMatchObject({
      status: "failed",
      completed_at: null,
      canceled_at: null,
      failure_reason: "account_closed",
      bank_account_masked: "****0002",
      amount: "9450",
    });
    for (const stamp of ["requested_at", "processing_at", "sent_to_bank_at", "failed_at"]) expect(event[stamp]).toMatch(CREATED_AT_RE);
    // The returned money goes out with the next payout, to the account that replaced the closed one.
    await getStack().core.payouts.addBankAccount({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ", account_number: "7770003" });
    const again = await getStack().core.payouts.requestPayout({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ" });
    expect(again.payout).toMatchObject({ amount: "9450", status: "completed", bank_account_masked: "****0003" });
    expect(await balances(m.merchantId)).toEqual({ pending: 0, available: 0, in_transit: 0 });
  });
});

// `paytami ledger verify`, `balances show` and `ledger transactions` as real processes against a
// real stack: clean after captures, refunds (part and full, before and after settlement),
// settlements, chargebacks and payouts (completed and failed);
// a deliberately corrupted ledger line, a deleted capture transaction and an extra unbalanced line
// are each reported with their ids and exit 1 ({"ok":false,"violations":[…]}, not an {"error"}).
// Corrupting needs the append-only trigger off: `session_replication_role = replica`, set for that
// one statement's transaction only; without it the trigger refuses.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CREATED_AT_RE, createOk, useStack } from "./support/expect.ts";
import { newIdemKey } from "./support/http.ts";
import { type Merchant } from "./support/stack.ts";
import { runCliWith } from "./support/cli-run.ts";

// Its last test leaves the ledger broken on purpose, so the harness's clean-ledger check after the file is off here.
const getStack = useStack({ env: { PAYOUT_SCHEDULE: "off" }, ledgerCorruptedOnPurpose: true });
let home: string;
let merchant: Merchant;
/**
 * Captured only; settled; settled with a chargeback open; USD settled with a chargeback won;
 * refunded in part before settlement, then settled; refunded in full after settlement.
 */
const p: Record<"captured" | "settled" | "disputed" | "usd" | "partRefunded" | "refunded", string> = {
  captured: "",
  settled: "",
  disputed: "",
  usd: "",
  partRefunded: "",
  refunded: "",
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function paytami(...args: string[]): Promise<Run> {
  return runCliWith(getStack(), { home, timeoutMs: 60_000 }, args).then((r) => ({ ...r, code: r.code ?? 1 }));
}

/** Exactly one JSON object on one line of stdout. */
function onlyJson(r: Run): any {
  const lines = r.stdout.split("\n").filter(Boolean);
  expect(lines, `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

/** Runs `statements` with the ledger's triggers off, in one transaction of their own. */
async function corrupt(statements: string): Promise<void> {
  await getStack().sql(`do $$ begin perform set_config('session_replication_role', 'replica', true); ${statements} end $$`);
}

async function captured(m: Merchant, currency = "GTQ", amount = "10000"): Promise<string> {
  const payment = await createOk(getStack().http, m.testApiKey, { amount, currency });
  await getStack().admin.simulate(payment.id, "succeed");
  return payment.id as string;
}

/** POST /v1/refunds (all that remains without `amount`). */
async function refund(paymentId: string, amount?: string): Promise<void> {
  const res = await getStack().http.post("/v1/refunds", {
    key: merchant.testApiKey,
    idem: newIdemKey(),
    body: { payment_id: paymentId, ...(amount ? { amount } : {}) },
  });
  expect(res.status, res.text).toBe(201);
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-ledger-home-"));
  merchant = await getStack().admin.createMerchant({ name: "Tienda Libro Mayor" });
  p.captured = await captured(merchant);
  p.settled = await captured(merchant, "GTQ", "25000");
  p.disputed = await captured(merchant, "GTQ", "12000");
  p.usd = await captured(merchant, "USD", "5000");
  p.partRefunded = await captured(merchant, "GTQ", "30000");
  p.refunded = await captured(merchant, "GTQ", "8000");
  await refund(p.partRefunded, "12000");
  for (const id of [p.settled, p.disputed, p.usd, p.partRefunded, p.refunded]) await getStack().admin.simulate(id, "settle");
  await refund(p.refunded, "3000");
  await refund(p.refunded);
  for (const [id, action] of [
    [p.disputed, "open"],
    [p.usd, "open"],
    [p.usd, "win"],
  ] as const) {
    expect((await paytami("simulate", "chargeback", id, action, "--json")).code).toBe(0);
  }
  // GTQ paid out to an account that works; USD to one that the sandbox bank closes (money back in available).
  for (const [currency, number] of [
    ["GTQ", "1234560001"],
    ["USD", "1234560002"],
  ] as const) {
    expect(
      (await paytami("bank-accounts", "add", "--merchant", merchant.merchantId, "--mode", "test", "--currency", currency, "--number", number, "--json")).code,
    ).toBe(0);
    expect((await paytami("simulate", "payout", "--merchant", merchant.merchantId, "--currency", currency, "--json")).code).toBe(0);
  }
});

afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

describe("paytami ledger verify", () => {
  test("clean after captures, refunds, settlements, chargebacks and payouts: {ok:true, checked} and exit 0", async () => {
    const r = await paytami("ledger", "verify", "--json");
    expect(r.code).toBe(0);
    const out = onlyJson(r);
    expect(Object.keys(out)).toEqual(["ok", "checked"]);
    expect(out.ok).toBe(true);
    expect(out.checked).toMatchObject({ payments: 6, captured_payments: 6, refunds: 3, chargebacks: 2, payouts: 2, balances: 2 });
    expect(out.checked.lines).toBeGreaterThan(0);
    const text = await paytami("ledger", "verify");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ledger ok: /);
  });

  test("the append-only trigger refuses UPDATE and DELETE of ledger lines", async () => {
    await expect(getStack().sql("update ledger_lines set amount = amount + 1 where payment_id = $1", [p.captured])).rejects.toThrow(/append-only/);
    await expect(getStack().sql("delete from ledger_transactions where payment_id = $1", [p.captured])).rejects.toThrow(/append-only/);
  });

  test("a corrupted line: its transaction is named, exit 1 with {ok:false, violations}", async () => {
    const [capture] = await getStack().sql<{ id: string }>("select id::text from ledger_transactions where payment_id = $1 and kind = 'capture'", [p.settled]);
    await corrupt(`update ledger_lines set amount = amount - 100 where transaction_id = ${capture!.id} and account = 'fee_revenue';`);
    try {
      const r = await paytami("ledger", "verify", "--json");
      expect(r.code).toBe(1);
      const out = onlyJson(r);
      expect(Object.keys(out)).toEqual(["ok", "violations"]);
      expect(out.ok).toBe(false);
      expect(out.violations).toEqual([
        {
          invariant: "transaction_balanced",
          transaction_id: capture!.id,
          payment_id: p.settled,
          currency: "GTQ",
          expected: "0",
          actual: "-100",
          message: `ledger transaction ${capture!.id}: its GTQ lines sum to -100, not 0`,
        },
      ]);
      const text = await paytami("ledger", "verify");
      expect(text.code).toBe(1);
      expect(text.stdout).toContain(`transaction_balanced: ledger transaction ${capture!.id}`);
    } finally {
      await corrupt(`update ledger_lines set amount = amount + 100 where transaction_id = ${capture!.id} and account = 'fee_revenue';`);
    }
    expect((await paytami("ledger", "verify", "--json")).code).toBe(0);
  });

  test("a deleted capture transaction (with its lines) and an extra unbalanced line", async () => {
    const saved = await getStack().sql<Record<string, string>>(
      "select t.id::text, t.created_at::text, l.account, l.amount::text from ledger_transactions t join ledger_lines l on l.transaction_id = t.id where t.payment_id = $1 and t.kind = 'capture'",
      [p.captured],
    );
    const [release] = await getStack().sql<{ id: string }>("select id::text from ledger_transactions where payment_id = $1 and kind = 'release'", [p.settled]);
    await corrupt(`
      delete from ledger_lines where transaction_id = ${saved[0]!.id};
      delete from ledger_transactions where id = ${saved[0]!.id};
      insert into ledger_lines (transaction_id, account, merchant_id, mode, currency, payment_id, amount)
        values (${release!.id}, 'merchant_available', '${merchant.merchantId}', 'test', 'GTQ', '${p.settled}', 7);`);
    const r = await paytami("ledger", "verify", "--json");
    expect(r.code).toBe(1);
    const { violations } = onlyJson(r);
    expect(violations).toContainEqual(expect.objectContaining({ invariant: "transaction_balanced", transaction_id: release!.id, actual: "7" }));
    expect(violations).toContainEqual(
      expect.objectContaining({ invariant: "payment_has_movement", payment_id: p.captured, expected: "a capture transaction", actual: "none" }),
    );
    // Pending lost the captured payment's net and available gained 7: the merchant's GTQ total is off.
    expect(violations).toContainEqual(
      expect.objectContaining({ invariant: "merchant_total", merchant_id: merchant.merchantId, mode: "test", currency: "GTQ" }),
    );
    expect(violations.map((v: { invariant: string }) => v.invariant).sort()).toEqual(["merchant_total", "payment_has_movement", "transaction_balanced"]);
  });
});

describe("balances and a payment's ledger transactions", () => {
  test("balances show: per currency, decimal strings", async () => {
    const other = await getStack().admin.createMerchant({ name: "Tienda Saldos" });
    const id = await captured(other, "GTQ", "10000");
    await getStack().admin.simulate(await captured(other, "GTQ", "20000"), "settle");
    const r = await paytami("balances", "show", "--merchant", other.merchantId, "--json");
    expect(r.code).toBe(0);
    const out = onlyJson(r);
    expect(Object.keys(out)).toEqual(["merchant_id", "mode", "balances"]);
    // Card fees 3.5 % + 200: 10 000 → 9 450 net, 20 000 → 19 100 net.
    expect(out).toEqual({
      merchant_id: other.merchantId,
      mode: "test",
      balances: [
        { currency: "GTQ", pending: "9450", available: "19100", in_transit: "0" },
        { currency: "USD", pending: "0", available: "0", in_transit: "0" },
      ],
    });
    expect(
      onlyJson(await paytami("balances", "show", "--merchant", other.merchantId, "--mode", "live", "--json")).balances.every(
        (b: Record<string, string>) => b.pending === "0" && b.available === "0" && b.in_transit === "0",
      ),
    ).toBe(true);

    const t = onlyJson(await paytami("ledger", "transactions", id, "--json"));
    expect(t.payment_id).toBe(id);
    expect(t.transactions).toHaveLength(1);
    expect(Object.keys(t.transactions[0])).toEqual(["id", "kind", "created_at", "lines"]);
    expect(t.transactions[0]).toMatchObject({
      kind: "capture",
      lines: [
        { account: "processor_receivable", amount: "-10000" },
        { account: "fee_revenue", amount: "550" },
        { account: "merchant_pending", amount: "9450" },
      ],
    });
    expect(t.transactions[0].created_at).toMatch(CREATED_AT_RE);
  });

  test("a settled, disputed payment lists every movement in order; an unknown one is unknown_payment", async () => {
    const t = onlyJson(await paytami("ledger", "transactions", p.disputed, "--json"));
    expect(t.transactions.map((x: { kind: string }) => x.kind)).toEqual(["capture", "settlement_batch", "funds_received", "release", "chargeback_opened"]);
    for (const x of t.transactions) expect(x.lines.reduce((s: bigint, l: { amount: string }) => s + BigInt(l.amount), 0n)).toBe(0n);
    const unknown = await paytami("ledger", "transactions", "pay_000000000000000000000000", "--json");
    expect(unknown.code).toBe(1);
    expect(onlyJson(unknown)).toEqual({ error: { code: "unknown_payment", message: "No such payment." } });
  });
});

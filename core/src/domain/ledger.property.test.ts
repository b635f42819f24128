// The ledger under random sequences of money movements (fast-check): payments created and captured,
// refunded in part, in full or by too much, disputed (chargebacks opened and won), settled through
// release, paid out (to bank accounts that work, or that the sandbox bank closes: ending 0002).
// The test keeps its own MODEL of every balance (written from the ledger model, not read back from
// the database) and after each sequence checks: verifyLedger is ok; each merchant's pending,
// available and in-transit balances are the model's; pending + available + in_transit = Σ net −
// Σ refunds − Σ open chargebacks − Σ completed payouts from the model's own records; available is
// below zero only under an open chargeback; no payment is refunded beyond its amount.
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { presentApiKey } from "./api-keys.ts";
import { addBankAccount } from "./bank-accounts.ts";
import { OPERATOR } from "./caller.ts";
import { openChargeback, winChargeback } from "./chargebacks.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { merchantBalances } from "./ledger.ts";
import { verifyLedger } from "./ledger-verify.ts";
import { createMerchant, type CreatedMerchant } from "./merchants.ts";
import { transitionPayment } from "./payment-transitions.ts";
import { advancePayout, requestPayout } from "./payouts.ts";
import { refundPayment } from "./refunds.ts";
import { settleNow } from "./settlement.ts";
import { SIMULATION_STEPS } from "./simulate-payment.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

const RUNS = Number(process.env.LEDGER_PROPERTY_RUNS ?? 40);
const CURRENCIES = ["GTQ", "USD"] as const;
type Currency = (typeof CURRENCIES)[number];

let database: MigratedDatabase | undefined;
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => new Date() });
  deps = database.deps;
});
afterAll(() => database?.close());

// ---------------------------------------------------------------------------------------------
// The model: what each movement does to the merchant's three balances (README "Ledger").

interface ModelPayment {
  id: string;
  group: string;
  amount: bigint;
  net: bigint;
  /** Σ of its merchant_pending lines: its net, less refunds taken from pending before release. */
  pendingShare: bigint;
  released: boolean;
  refunded: bigint;
  openChargeback: bigint | null;
}

interface ModelGroup {
  pending: bigint;
  available: bigint;
  in_transit: bigint;
  /** The records the totals are checked against. */
  net: bigint;
  refunds: bigint;
  completedPayouts: bigint;
}

class Model {
  readonly payments: ModelPayment[] = [];
  readonly groups = new Map<string, ModelGroup>();

  group(key: string): ModelGroup {
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = { pending: 0n, available: 0n, in_transit: 0n, net: 0n, refunds: 0n, completedPayouts: 0n }));
    return g;
  }

  openChargebacks(key: string): bigint {
    return this.payments.filter((p) => p.group === key && p.openChargeback !== null).reduce((sum, p) => sum + p.openChargeback!, 0n);
  }

  capture(p: ModelPayment): void {
    this.payments.push(p);
    const g = this.group(p.group);
    g.pending += p.net;
    g.net += p.net;
  }

  /** Settlement through release: what is left of the payment's pending share becomes available. */
  settle(p: ModelPayment): void {
    if (p.released) return;
    const released = p.pendingShare > 0n ? p.pendingShare : 0n;
    const g = this.group(p.group);
    g.pending -= released;
    g.available += released;
    p.pendingShare -= released;
    p.released = true;
  }

  refundable(p: ModelPayment): boolean {
    return p.openChargeback === null && p.refunded < p.amount;
  }

  /** Before release from pending; after, from available as far as it goes, the rest from pending (a debt). */
  refund(p: ModelPayment, r: bigint): void {
    const g = this.group(p.group);
    if (!p.released) {
      g.pending -= r;
      p.pendingShare -= r;
    } else {
      const fromAvailable = g.available <= 0n ? 0n : g.available < r ? g.available : r;
      g.available -= fromAvailable;
      g.pending -= r - fromAvailable;
    }
    p.refunded += r;
    g.refunds += r;
  }

  openChargeback(p: ModelPayment): bigint {
    const c = p.amount - p.refunded;
    p.openChargeback = c;
    this.group(p.group).available -= c;
    return c;
  }

  winChargeback(p: ModelPayment): bigint {
    const c = p.openChargeback!;
    p.openChargeback = null;
    this.group(p.group).available += c;
    return c;
  }

  /** The payout's amount: available less what pending owes; null when nothing is left. */
  requestPayout(key: string): bigint | null {
    const g = this.group(key);
    const avail = g.available;
    const debt = g.pending < 0n ? (avail < -g.pending ? avail : -g.pending) : 0n;
    const amount = avail - debt;
    if (amount <= 0n) return null;
    g.available -= avail;
    g.pending += debt;
    g.in_transit += amount;
    return amount;
  }

  finishPayout(key: string, amount: bigint, completed: boolean): void {
    const g = this.group(key);
    g.in_transit -= amount;
    if (completed) g.completedPayouts += amount;
    else g.available += amount;
  }
}

// ---------------------------------------------------------------------------------------------
// The commands.

type Command =
  | { t: "pay"; merchant: number; currency: Currency; amount: number }
  | { t: "settle"; p: number }
  | { t: "refund"; p: number; how: "part" | "rest" | "default" | "tooMuch"; quarter: number }
  | { t: "chargeback"; p: number; action: "open" | "win" }
  | { t: "payout"; merchant: number; currency: Currency }
  | { t: "account"; merchant: number; currency: Currency; failing: boolean };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("pay" as const),
      merchant: fc.integer({ min: 0, max: 1 }),
      currency: fc.constantFrom(...CURRENCIES),
      amount: fc.integer({ min: 500, max: 60_000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("settle" as const), p: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("refund" as const),
      p: fc.nat(),
      how: fc.constantFrom("part" as const, "rest" as const, "default" as const, "tooMuch" as const),
      quarter: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("chargeback" as const), p: fc.nat(), action: fc.constantFrom("open" as const, "win" as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant("payout" as const), merchant: fc.integer({ min: 0, max: 1 }), currency: fc.constantFrom(...CURRENCIES) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("account" as const),
      merchant: fc.integer({ min: 0, max: 1 }),
      currency: fc.constantFrom(...CURRENCIES),
      failing: fc.boolean(),
    }),
  },
);

const codeOf = async (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => "ok",
    (error: unknown) => {
      if (error instanceof DomainError) return error.code;
      throw error;
    },
  );

let accountSerial = 0;
const accountNumber = (failing: boolean) => `55${String(++accountSerial).padStart(6, "0")}${failing ? "0002" : "0001"}`;

async function runSequence(commands: readonly Command[]): Promise<void> {
  const model = new Model();
  const merchants: CreatedMerchant[] = [];
  for (const name of ["Tienda Uno", "Tienda Dos"]) {
    merchants.push(await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name, currencies: [], methods: [] })));
  }
  const key = (merchant: number, currency: string) => `${merchants[merchant]!.merchantId}:${currency}`;
  for (let m = 0; m < merchants.length; m++) {
    for (const currency of CURRENCIES) {
      await inTransaction(deps, (tx) =>
        addBankAccount(deps, tx, OPERATOR, { merchantId: merchants[m]!.merchantId, mode: "test", currency, accountNumber: accountNumber(false) }),
      );
    }
  }
  const pick = (p: number) => (model.payments.length === 0 ? undefined : model.payments[p % model.payments.length]);

  for (const command of commands) {
    switch (command.t) {
      case "pay": {
        const merchant = merchants[command.merchant]!;
        const input = {
          amount: String(command.amount),
          currency: command.currency,
          method_type: "card",
          success_url: "https://shop.example/ok",
          cancel_url: "https://shop.example/no",
        };
        const created = await withoutTransaction(deps, (tx) =>
          createPayment(deps, tx, presentApiKey(merchant.testApiKey), { idempotencyKey: `property-${Math.random()}`, input }),
        );
        const payment = created.value;
        await inTransaction(deps, (tx) => transitionPayment(deps, tx, payment.id, SIMULATION_STEPS.succeed));
        const net = BigInt(payment.net_amount);
        model.capture({
          id: payment.id,
          group: key(command.merchant, command.currency),
          amount: BigInt(payment.amount),
          net,
          pendingShare: net,
          released: false,
          refunded: 0n,
          openChargeback: null,
        });
        break;
      }
      case "settle": {
        const p = pick(command.p);
        if (!p) break;
        await inTransaction(deps, (tx) => settleNow(deps, tx, p.id));
        model.settle(p);
        break;
      }
      case "refund": {
        const p = pick(command.p);
        if (!p) break;
        const remaining = p.amount - p.refunded;
        const asked =
          command.how === "default"
            ? undefined
            : command.how === "rest"
              ? remaining
              : command.how === "tooMuch"
                ? remaining + 1n
                : (remaining * BigInt(command.quarter)) / 4n || 1n;
        const expected = !model.refundable(p) ? "payment_not_refundable" : (asked ?? remaining) > remaining ? "refund_amount_exceeds_remaining" : "ok";
        let refunded: string | undefined;
        const code = await codeOf(
          inTransaction(deps, async (tx) => {
            const changes = await refundPayment(deps, tx, p.id, asked, undefined);
            refunded = changes.value.amount;
            return changes;
          }),
        );
        expect(code, `refund ${asked ?? "(rest)"} of ${p.id} (${remaining} left)`).toBe(expected);
        if (code === "ok") {
          expect(refunded).toBe(String(asked ?? remaining));
          model.refund(p, asked ?? remaining);
        }
        break;
      }
      case "chargeback": {
        const p = pick(command.p);
        if (!p) break;
        if (command.action === "open") {
          const allowed = model.refundable(p);
          const opened = await codeOf(
            inTransaction(deps, async (tx) => {
              const changes = await openChargeback(deps, tx, OPERATOR, { paymentId: p.id });
              expect(changes.value.amount).toBe(String(p.amount - p.refunded));
              return changes;
            }),
          );
          // Refused (whatever the code) exactly when the model says the payment cannot be disputed.
          expect(opened === "ok", `open a chargeback on ${p.id}: ${opened}`).toBe(allowed);
          if (opened === "ok") model.openChargeback(p);
        } else {
          const allowed = p.openChargeback !== null;
          const won = await codeOf(inTransaction(deps, (tx) => winChargeback(deps, tx, OPERATOR, { paymentId: p.id })));
          expect(won === "ok", `win the chargeback of ${p.id}: ${won}`).toBe(allowed);
          if (won === "ok") model.winChargeback(p);
        }
        break;
      }
      case "payout": {
        const merchant = merchants[command.merchant]!;
        const groupKey = key(command.merchant, command.currency);
        const payout = await inTransaction(deps, (tx) =>
          requestPayout(deps, tx, { merchantId: merchant.merchantId, mode: "test" }, { currency: command.currency }),
        );
        const expected = model.requestPayout(groupKey);
        expect(payout?.amount ?? null, `payout of ${groupKey}`).toBe(expected === null ? null : String(expected));
        if (!payout) break;
        const ended = await advancePayout(deps, deps.orm.em.fork(), payout.id);
        expect(["completed", "failed"]).toContain(ended.status);
        model.finishPayout(groupKey, expected!, ended.status === "completed");
        break;
      }
      case "account": {
        await inTransaction(deps, (tx) =>
          addBankAccount(deps, tx, OPERATOR, {
            merchantId: merchants[command.merchant]!.merchantId,
            mode: "test",
            currency: command.currency,
            accountNumber: accountNumber(command.failing),
          }),
        );
        break;
      }
    }
  }

  const verification = await withoutTransaction(deps, (tx) => verifyLedger(deps, tx, OPERATOR));
  expect(verification.ok ? [] : verification.violations).toEqual([]);

  for (let m = 0; m < merchants.length; m++) {
    const balances = await withoutTransaction(deps, (tx) => merchantBalances(tx, merchants[m]!.merchantId, "test"));
    for (const currency of CURRENCIES) {
      const groupKey = key(m, currency);
      const g = model.group(groupKey);
      const actual = balances.find((b) => b.currency === currency) ?? { pending: 0n, available: 0n, in_transit: 0n };
      expect({ pending: actual.pending, available: actual.available, in_transit: actual.in_transit }, groupKey).toEqual({
        pending: g.pending,
        available: g.available,
        in_transit: g.in_transit,
      });
      const openChargebacks = model.openChargebacks(groupKey);
      expect(actual.pending + actual.available + actual.in_transit, `${groupKey}: net − refunds − open chargebacks − completed payouts`).toBe(
        g.net - g.refunds - openChargebacks - g.completedPayouts,
      );
      if (openChargebacks === 0n) expect(actual.available >= 0n, `${groupKey}: available ${actual.available} with no open chargeback`).toBe(true);
    }
  }
  const ids = model.payments.map((p) => p.id);
  if (ids.length > 0) {
    const over = await db(deps.orm.em.fork())
      .selectFrom("refunds as r")
      .innerJoin("payments as p", "p.id", "r.payment_id")
      .select(["p.id", "p.amount", (eb) => eb.fn.sum<string>("r.amount").as("refunded")])
      .where("p.id", "in", ids)
      .groupBy(["p.id", "p.amount"])
      .execute();
    for (const row of over) expect(BigInt(row.refunded) <= BigInt(row.amount), `refunds of ${row.id}`).toBe(true);
    for (const p of model.payments) expect(p.refunded <= p.amount).toBe(true);
  }
}

test("random captures, refunds, chargebacks, settlements and payouts keep every ledger invariant and the model's balances", async () => {
  await fc.assert(fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 30 }), runSequence), { numRuns: RUNS });
}, 600_000);

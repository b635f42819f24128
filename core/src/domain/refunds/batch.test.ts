// Group commit of refunds (batch.ts) against a real PostgreSQL: the batched path answers every
// request exactly as the unbatched one does (requests run one after another in arrival order), leaves
// the same payments, refunds and ledger behind, refuses a refund exceeding the remainder alone, and
// same-key requests arriving together still make exactly one refund.
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../../test/support/database.ts";
import { db } from "../../db/orm.ts";
import { presentApiKey } from "../api-keys.ts";
import { OPERATOR } from "../caller.ts";
import { createPayment } from "../create-payment.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError } from "../errors.ts";
import { createMerchant } from "../merchants.ts";
import { transitionPayment } from "../payment-transitions.ts";
import { createRefund } from "../refunds.ts";
import { SIMULATION_STEPS } from "../simulate-payment.ts";
import { inTransaction, withoutTransaction } from "../unit-of-work.ts";
import { refundBatchFailures, refundBatchSizes } from "./batch.ts";

let database: MigratedDatabase | undefined;
let unbatched: CoreDeps;
let batched: CoreDeps;
/** The merchant whose payments are refunded, another merchant, and a key that is nobody's. */
let credentials: string[];

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 8, now: () => new Date() });
  const { deps } = database;
  unbatched = { ...deps, config: { ...deps.config, refundBatch: { on: false, max: 64, waitMs: 1 } } };
  batched = { ...deps, config: { ...deps.config, refundBatch: { on: true, max: 8, waitMs: 1 } } };
  const shop = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Reembolsos", currencies: [], methods: [] }));
  const other = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Otra tienda", currencies: [], methods: [] }));
  credentials = [shop.testApiKey, other.testApiKey, `sk_test_${"0".repeat(32)}`];
});

afterAll(() => database?.close());

const deps = () => database!.deps;

/** A payment of 10.00 GTQ of the shop's: captured, or left pending (not refundable). */
async function payment(prefix: string, captured: boolean): Promise<string> {
  const input = { amount: "1000", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
  const created = await withoutTransaction(deps(), (tx) =>
    createPayment(deps(), tx, presentApiKey(credentials[0]), { idempotencyKey: `${prefix}-payment-${captured}-${Math.random()}`, input }),
  );
  if (captured) await inTransaction(deps(), (tx) => transitionPayment(deps(), tx, created.value.id, SIMULATION_STEPS.succeed));
  return created.value.id;
}

/** Three captured payments, one pending, one captured and marked released (its refunds take the funds path). */
async function payments(prefix: string): Promise<string[]> {
  const ids = [
    await payment(prefix, true),
    await payment(prefix, true),
    await payment(prefix, true),
    await payment(prefix, false),
    await payment(prefix, true),
  ];
  await db(deps().orm.em.fork()).updateTable("payments").set({ available_to_merchant_at: new Date() }).where("id", "=", ids[4]!).execute();
  return ids;
}

const AMOUNTS = ["100", "400", "700", undefined, "5000", "abc"] as const;

interface Request {
  credential: number;
  /** Index into a small pool of keys (so keys repeat), or none (refused before anything). */
  key: number | "missing";
  /** Index into the run's payments, or an id of the right form that is nobody's, or one of the wrong form. */
  payment: number | "unknown" | "malformed";
  amount: number;
  reason: boolean;
}

const request = fc.record<Request>({
  credential: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, fc.constant(1), fc.constant(2)),
  key: fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 0, max: 7 }) }, fc.constant("missing" as const)),
  payment: fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 4 }) }, fc.constant("unknown" as const), fc.constant("malformed" as const)),
  amount: fc.integer({ min: 0, max: AMOUNTS.length - 1 }),
  reason: fc.boolean(),
});

/** A request's answer without what differs between two runs (refund ids and times; payment ids as their index). */
async function answer(d: CoreDeps, r: Request, prefix: string, ids: string[]): Promise<unknown> {
  const paymentId = r.payment === "unknown" ? `pay_${"0".repeat(24)}` : r.payment === "malformed" ? "nope" : ids[r.payment]!;
  const amount = AMOUNTS[r.amount];
  const input = { payment_id: paymentId, ...(amount === undefined ? {} : { amount }), ...(r.reason ? { reason: "duplicate_charge" } : {}) };
  const idempotencyKey = r.key === "missing" ? undefined : `${prefix}-key-${r.key}`;
  try {
    const { value, replayed } = await withoutTransaction(d, (tx) => createRefund(d, tx, presentApiKey(credentials[r.credential]), { idempotencyKey, input }));
    const { id, created_at, payment_id, ...rest } = value;
    return { replayed, refund: rest, payment: ids.indexOf(payment_id), id: id.slice(0, 3), created_at: typeof created_at };
  } catch (error) {
    if (error instanceof DomainError) return { error: error.code };
    throw error;
  }
}

/**
 * The requests in rounds: round k holds the k-th request of every key, so no key repeats within a
 * round. Unbatched, a round's requests run one after another; batched, all at once (the batcher takes
 * them in arrival order, which is the array's): the answers must be the same.
 */
async function run(d: CoreDeps, requests: Request[], prefix: string, ids: string[], together: boolean): Promise<unknown[]> {
  const seen = new Map<string, number>();
  const rounds: number[][] = [];
  requests.forEach((r, i) => {
    const name = String(r.key);
    const k = r.key === "missing" ? 0 : (seen.get(name) ?? 0);
    seen.set(name, k + 1);
    (rounds[k] ??= []).push(i);
  });
  const answers: unknown[] = [];
  for (const round of rounds) {
    if (together) {
      const got = await Promise.all(round.map((i) => answer(d, requests[i]!, prefix, ids)));
      round.forEach((i, j) => (answers[i] = got[j]));
    } else for (const i of round) answers[i] = await answer(d, requests[i]!, prefix, ids);
  }
  return answers;
}

/** What the run left behind, per payment (by index): its state, its refunds and its ledger by account. */
async function state(ids: string[]) {
  const q = db(deps().orm.em.fork());
  return Promise.all(
    ids.map(async (id) => {
      const p = await q.selectFrom("payments").select(["status", "refunded_at", "refunded_amount"]).where("id", "=", id).executeTakeFirstOrThrow();
      const refunds = await q.selectFrom("refunds").select(["amount", "reason"]).where("payment_id", "=", id).orderBy("seq").execute();
      const ledger = await q
        .selectFrom("ledger_lines")
        .select(["account", (eb) => eb.fn.sum<string>("amount").as("total")])
        .where("payment_id", "=", id)
        .groupBy("account")
        .orderBy("account")
        .execute();
      const events = await q
        .selectFrom("outbox_events")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("type", "=", "refund.succeeded")
        .where(sql`envelope->'data'->>'payment_id'`, "=", id)
        .executeTakeFirstOrThrow();
      const refunded = refunds.reduce((n, r) => n + BigInt(r.amount), 0n).toString();
      // The running total is the sum of the refunds, on either path.
      expect(String(p.refunded_amount)).toBe(refunded);
      return {
        status: p.status,
        refunded_at: p.refunded_at === null ? null : "set",
        refunded_amount: String(p.refunded_amount),
        refunds,
        ledger,
        events: Number(events.n),
      };
    }),
  );
}

let runs = 0;

describe("group commit of refunds", () => {
  test("the batched path answers every request as the unbatched one does and leaves the same payments, refunds, ledger and events", async () => {
    const before = refundBatchSizes.reduce((n, count, size) => n + (size > 1 ? count : 0), 0);
    const failuresBefore = refundBatchFailures.count;
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 30 }), async (requests) => {
        runs += 1;
        const plainIds = await payments(`rb-${runs}-plain`);
        const groupedIds = await payments(`rb-${runs}-batch`);
        const plain = await run(unbatched, requests, `rb-${runs}-plain`, plainIds, false);
        const grouped = await run(batched, requests, `rb-${runs}-batch`, groupedIds, true);
        expect(grouped).toEqual(plain);
        expect(await state(groupedIds)).toEqual(await state(plainIds));
      }),
      { numRuns: 20 },
    );
    // The property exercised real batches, not only lone requests...
    expect(refundBatchSizes.reduce((n, count, size) => n + (size > 1 ? count : 0), 0)).toBeGreaterThan(before);
    // ...and every batch did its work itself (a failed one reruns its requests one by one, which would hide a bug).
    expect(refundBatchFailures.count).toBe(failuresBefore);
  });

  test("refunds of one payment arriving together: the ones that fit are made in arrival order, each one exceeding the remainder is refused alone", async () => {
    const [id] = await payments("rb-fit");
    const amounts = ["300", "300", "500", "300", "100", "300"];
    const d = batched;
    const answers = await Promise.all(
      amounts.map((amount, i) =>
        withoutTransaction(d, (tx) =>
          createRefund(d, tx, presentApiKey(credentials[0]), { idempotencyKey: `rb-fitkey-${i}`, input: { payment_id: id, amount } }),
        ).then(
          (r) => r.value.amount,
          (error: unknown) => (error instanceof DomainError ? error.code : error),
        ),
      ),
    );
    // 300, 300 (600), 500 would make 1100: refused; 300 (900); 100 (1000: refunded); 300: nothing remains, the payment is refunded.
    expect(answers).toEqual(["300", "300", "refund_amount_exceeds_remaining", "300", "100", "payment_not_refundable"]);
    const [after] = await state([id!]);
    expect(after).toMatchObject({ status: "refunded", events: 4 });
    expect(after!.refunds.map((r) => r.amount)).toEqual(["300", "300", "300", "100"]);
    // The refunds' ledger transactions: each balances, and together they moved exactly 10.00 from the merchant's pending to Paytami's cash.
    const lines = await db(deps().orm.em.fork())
      .selectFrom("ledger_lines")
      .innerJoin("ledger_transactions", "ledger_transactions.id", "ledger_lines.transaction_id")
      .select(["ledger_transactions.refund_id", "ledger_lines.account", "ledger_lines.amount"])
      .where("ledger_transactions.payment_id", "=", id!)
      .where("ledger_transactions.kind", "=", "refund")
      .execute();
    const byRefund = Map.groupBy(lines, (l) => l.refund_id);
    expect(byRefund.size).toBe(4);
    for (const refundLines of byRefund.values()) expect(refundLines.reduce((n, l) => n + BigInt(l.amount), 0n)).toBe(0n);
    const total = (account: string) => lines.filter((l) => l.account === account).reduce((n, l) => n + BigInt(l.amount), 0n);
    expect([total("merchant_pending"), total("platform_cash")]).toEqual([-1000n, 1000n]);
    // The refused requests' keys were released, as their own rolled-back transactions would have.
    const keys = await db(deps().orm.em.fork()).selectFrom("idempotency_keys").select("key").where("key", "like", "rb-fitkey-%").orderBy("key").execute();
    expect(keys.map((k) => k.key)).toEqual(["rb-fitkey-0", "rb-fitkey-1", "rb-fitkey-3", "rb-fitkey-4"]);
  });

  test("the running total: refunds of one payment arriving together, batched and alone at once, reach its amount and not one unit more", async () => {
    const [full, partial] = await payments("rb-total");
    const refund = (d: CoreDeps, id: string, amount: string, key: string) =>
      withoutTransaction(d, (tx) => createRefund(d, tx, presentApiKey(credentials[0]), { idempotencyKey: key, input: { payment_id: id, amount } })).then(
        (r) => r.value.amount,
        (error: unknown) => (error instanceof DomainError ? error.code : error),
      );
    const stored = async (id: string) => {
      const q = db(deps().orm.em.fork());
      const p = await q.selectFrom("payments").select(["status", "refunded_amount"]).where("id", "=", id).executeTakeFirstOrThrow();
      const sum = await q
        .selectFrom("refunds")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("amount"), sql<string>`0`).as("total"))
        .where("payment_id", "=", id)
        .executeTakeFirstOrThrow();
      return { status: p.status, refunded_amount: String(p.refunded_amount), refunds: String(sum.total) };
    };
    // 14 refunds of 1.00 of a 10.00 payment, half through the batcher and half alone, all at once: exactly 10 are made.
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => refund(i % 2 === 0 ? batched : unbatched, full!, "100", `rb-total-full-${i}`)));
    expect(answers.filter((a) => a === "100")).toHaveLength(10);
    expect(answers.filter((a) => a !== "100").every((a) => a === "payment_not_refundable")).toBe(true);
    expect(await stored(full!)).toEqual({ status: "refunded", refunded_amount: "1000", refunds: "1000" });
    expect(await refund(batched, full!, "1", "rb-total-full-late")).toBe("payment_not_refundable");
    // 3.00 four times at once: three fit (9.00); then 2.00 exceeds the 1.00 left, and 1.00 is exactly what remains.
    const partials = await Promise.all(Array.from({ length: 4 }, (_, i) => refund(i % 2 === 0 ? batched : unbatched, partial!, "300", `rb-total-part-${i}`)));
    expect(partials.toSorted()).toEqual(["300", "300", "300", "refund_amount_exceeds_remaining"]);
    expect(await stored(partial!)).toEqual({ status: "partially_refunded", refunded_amount: "900", refunds: "900" });
    expect(await refund(batched, partial!, "200", "rb-total-part-over")).toBe("refund_amount_exceeds_remaining");
    expect(await refund(unbatched, partial!, "100", "rb-total-part-rest")).toBe("100");
    expect(await stored(partial!)).toEqual({ status: "refunded", refunded_amount: "1000", refunds: "1000" });
  });

  test("same-key requests arriving together make exactly one refund; the others replay it or get 409", async () => {
    const [id] = await payments("rb-same");
    const d = batched;
    const failuresBefore = refundBatchFailures.count;
    const bodies = Array.from({ length: 30 }, (_, i) => ({ payment_id: id!, amount: i % 3 === 0 ? "200" : "100" }));
    const answers = await Promise.all(
      bodies.map((input) =>
        withoutTransaction(d, (tx) => createRefund(d, tx, presentApiKey(credentials[0]), { idempotencyKey: "rb-same-key-1", input })).then(
          (r) => r,
          (error: unknown) => (error instanceof DomainError ? error.code : error),
        ),
      ),
    );
    const made = answers.filter((a) => typeof a === "object" && !(a as { replayed: boolean }).replayed);
    expect(made).toHaveLength(1);
    const winner = (made[0] as { value: { id: string; amount: string } }).value;
    answers.forEach((a, i) => {
      if (bodies[i]!.amount === winner.amount) expect(a).toMatchObject({ value: winner });
      else expect(a).toBe("idempotency_key_reused");
    });
    const refunds = await db(deps().orm.em.fork()).selectFrom("refunds").select("id").where("payment_id", "=", id!).execute();
    expect(refunds).toEqual([{ id: winner.id }]);
    expect(refundBatchFailures.count).toBe(failuresBefore);
  });
});

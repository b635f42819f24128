// The customer's attempts on the hosted page, against a real database with the sandbox processor
// (a test-controlled processor where a test must hold a call in flight).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { ProcessorCallWithdrawn, type CardOutcome, type Processor } from "../processor/processor.ts";
import { sandboxProcessor } from "../processor/sandbox.ts";
import { presentApiKey } from "./api-keys.ts";
import { merchantCaller, OPERATOR, PUBLIC } from "./caller.ts";
import { cancelPayment } from "./cancel-payment.ts";
import { cancelCheckout, completeChallenge, startBankTransfer, submitCard } from "./checkout-attempts.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { createMerchant, type CreatedMerchant } from "./merchants.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let clock = new Date("2026-11-22T12:00:00.000Z");
let merchant: CreatedMerchant;
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 6, now: () => clock });
  deps = database.deps;
  merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Tienda", currencies: [], methods: [] }));
});

afterAll(() => database?.close());

let n = 0;
async function newPayment(method: "card" | "bank_transfer" = "card", key = merchant.testApiKey): Promise<string> {
  const input = { amount: "15050", currency: "GTQ", method_type: method, success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
  const created = await withoutTransaction(deps, (tx) =>
    createPayment(deps, tx, presentApiKey(key), { idempotencyKey: `attempt-test-${n++}-${Math.random()}`, input }),
  );
  return created.value.id;
}

const card = (number: string) => ({ number, exp_month: 12, exp_year: 2030, cvc: "123", holder_name: "Ana López" });
const sql = () => db(database!.orm.em.fork());
const row = (id: string) => sql().selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const eventsOf = async (id: string) =>
  (await sql().selectFrom("outbox_events").select(["type", "envelope"]).execute())
    .filter((e) => (e.envelope as { data: { id: string } }).data.id === id)
    .map((e) => e.type);
const submit = (id: string, number: string, d: CoreDeps = deps) =>
  withoutTransaction(d, (tx) => submitCard(d, tx, PUBLIC, { paymentId: id, card: card(number) }));
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (e: unknown) => (e instanceof DomainError ? e.code : `unexpected: ${String(e)}`),
  );

describe("card attempts with the sandbox test cards", () => {
  test.each([
    ["4242424242424242", "captured", "redirect_success", ["payment.succeeded"]],
    ["4000000000000002", "failed", "redirect_cancel", ["payment.failed"]],
    ["4000000000009995", "failed", "redirect_cancel", ["payment.failed"]],
    ["4000000000003220", "processing", "challenge", []],
  ])("%s → %s (%s)", async (number, status, next, events) => {
    const id = await newPayment();
    const result = await submit(id, number);
    expect(result).toMatchObject({
      next,
      card: { brand: "visa", last4: number.slice(-4) },
      payment: { status, card_brand: "visa", card_last4: number.slice(-4) },
    });
    const stored = await row(id);
    expect(stored).toMatchObject({ status, card_brand: "visa", card_last4: number.slice(-4), attempt_expires_at: null });
    // The number is nowhere in the row, only its last four digits.
    expect(JSON.stringify(stored)).not.toContain(number);
    expect(await eventsOf(id)).toEqual(events);
  });

  test("the processor-error card answers processor_unavailable and the payment can be paid again", async () => {
    const id = await newPayment();
    expect(await codeOf(submit(id, "4000000000000119"))).toBe("processor_unavailable");
    expect(await row(id)).toMatchObject({ status: "created", attempt_expires_at: null });
    expect((await submit(id, "4242424242424242")).payment.status).toBe("captured");
  });

  test("a bad card is refused before the processor, without its number in the message", async () => {
    const id = await newPayment();
    const error = await withoutTransaction(deps, (tx) => submitCard(deps, tx, PUBLIC, { paymentId: id, card: card("4242424242424241") })).catch(
      (e: unknown) => e as DomainError,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("validation_error");
    expect((error as DomainError).message).not.toContain("4242424242424241");
    const expired = { ...card("4242424242424242"), exp_month: 10, exp_year: 2026 };
    expect(await codeOf(withoutTransaction(deps, (tx) => submitCard(deps, tx, PUBLIC, { paymentId: id, card: expired })))).toBe("validation_error");
    expect((await row(id)).status).toBe("created");
  });

  test("the challenge: passed → captured, failed → failed; no challenge pending → refused", async () => {
    const passed = await newPayment();
    await submit(passed, "4000000000003220");
    expect((await row(passed)).challenge_pending).toBe(true);
    const ok = await withoutTransaction(deps, (tx) => completeChallenge(deps, tx, PUBLIC, { paymentId: passed, confirmed: true }));
    expect(ok).toMatchObject({ next: "redirect_success", payment: { status: "captured", challenge_pending: false } });
    expect(await eventsOf(passed)).toEqual(["payment.succeeded"]);

    const failed = await newPayment();
    await submit(failed, "4000000000003220");
    expect((await withoutTransaction(deps, (tx) => completeChallenge(deps, tx, PUBLIC, { paymentId: failed, confirmed: false }))).payment.status).toBe(
      "failed",
    );
    expect(await codeOf(withoutTransaction(deps, (tx) => completeChallenge(deps, tx, PUBLIC, { paymentId: failed, confirmed: true })))).toBe(
      "payment_not_payable",
    );

    const none = await newPayment();
    expect(await codeOf(withoutTransaction(deps, (tx) => completeChallenge(deps, tx, PUBLIC, { paymentId: none, confirmed: true })))).toBe("validation_error");
  });

  test("the challenge's outcome is the processor's: confirming a challenge the issuer refuses fails the payment", async () => {
    const refused = await newPayment();
    expect((await submit(refused, "4000000000003238")).next).toBe("challenge");
    expect(await row(refused)).toMatchObject({ status: "processing", challenge_pending: true, challenge_reference: expect.stringMatching(/^sbx_chl_/) });
    const answer = await withoutTransaction(deps, (tx) => completeChallenge(deps, tx, PUBLIC, { paymentId: refused, confirmed: true }));
    expect(answer).toMatchObject({ next: "redirect_cancel", payment: { status: "failed" } });
    expect(await row(refused)).toMatchObject({ challenge_pending: false, challenge_reference: null });
    expect(await eventsOf(refused)).toEqual(["payment.failed"]);
  });

  test("the core completes the challenge the processor opened, by its reference, and records the processor's answer", async () => {
    const asked: Array<{ reference: string; confirmed: boolean }> = [];
    const issuer: CoreDeps = {
      ...deps,
      processors: {
        test: {
          ...sandboxProcessor(deps.config.sandbox),
          chargeCard: async () => ({ outcome: "challenge", reference: "issuer-ref-1" }),
          completeChallenge: async (reference, confirmed) => {
            asked.push({ reference, confirmed });
            return { outcome: "declined", reason: "card_declined" };
          },
        },
      },
    };
    const id = await newPayment();
    await submit(id, "4242424242424242", issuer);
    const answer = await withoutTransaction(issuer, (tx) => completeChallenge(issuer, tx, PUBLIC, { paymentId: id, confirmed: true }));
    expect(asked).toEqual([{ reference: "issuer-ref-1", confirmed: true }]);
    expect(answer.payment.status).toBe("failed");
  });

  test("a resolved payment and a bank-transfer payment refuse a card; live mode has no processor yet", async () => {
    const id = await newPayment();
    await submit(id, "4242424242424242");
    expect(await codeOf(submit(id, "4242424242424242"))).toBe("payment_not_payable");
    expect(await codeOf(submit(await newPayment("bank_transfer"), "4242424242424242"))).toBe("validation_error");
    const live = await newPayment("card", merchant.liveApiKey);
    expect(await codeOf(submit(live, "4242424242424242"))).toBe("processor_unavailable");
    expect((await row(live)).status).toBe("created");
  });
});

describe("one attempt at a time, and no lock held while the processor answers", () => {
  test("two concurrent submits on one payment charge it once", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let charges = 0;
    let called!: () => void;
    const inFlight = new Promise<void>((resolve) => (called = resolve));
    const slow: Processor = {
      ...sandboxProcessor(deps.config.sandbox),
      chargeCard: async (): Promise<CardOutcome> => {
        charges++;
        called();
        await gate;
        return { outcome: "authorized" };
      },
    };
    const held: CoreDeps = { ...deps, processors: { test: slow } };
    const id = await newPayment();
    const first = submit(id, "4242424242424242", held);
    await inFlight;
    // The payment's row is not locked during the call: another connection takes its lock at once.
    const probe = await database!.orm.em.fork().getConnection().execute(`select id from payments where id = '${id}' for update nowait`);
    expect(probe).toHaveLength(1);
    // A second submit (a double click, another tab), a cancel and a merchant cancel are refused meanwhile.
    expect(await codeOf(submit(id, "4242424242424242", held))).toBe("payment_not_payable");
    expect(await codeOf(withoutTransaction(deps, (tx) => cancelCheckout(deps, tx, PUBLIC, id)))).toBe("payment_not_payable");
    release();
    expect((await first).payment.status).toBe("captured");
    expect(charges).toBe(1);
    expect(await eventsOf(id)).toEqual(["payment.succeeded"]);
  });

  test("an attempt claimed by a core that died frees the payment when its lease runs out", async () => {
    const id = await newPayment();
    await sql()
      .updateTable("payments")
      .set({ attempt_expires_at: new Date(clock.getTime() + 1_000) })
      .where("id", "=", id)
      .execute();
    expect(await codeOf(submit(id, "4242424242424242"))).toBe("payment_not_payable");
    clock = new Date(clock.getTime() + 2_000);
    expect((await submit(id, "4242424242424242")).payment.status).toBe("captured");
  });

  test("past its TTL with an attempt in flight: refused as in progress, and not expired under the call", async () => {
    const id = await newPayment();
    await sql()
      .updateTable("payments")
      .set({ attempt_expires_at: new Date(clock.getTime() + 1_000), expires_at: new Date(clock.getTime() - 1) })
      .where("id", "=", id)
      .execute();
    const refused = await submit(id, "4242424242424242").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: "payment_not_payable", message: expect.stringContaining("in progress") });
    expect(await row(id)).toMatchObject({ status: "created" });
  });
});

describe("the processor's deadline (PROCESSOR_CALL_TIMEOUT)", () => {
  const withProcessor = (processor: Partial<Processor>): CoreDeps => ({
    ...deps,
    config: { ...deps.config, processorCallTimeoutMs: 150 },
    processors: { test: { ...sandboxProcessor(deps.config.sandbox), ...processor } },
  });
  const untilAborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));

  test("a call withdrawn at its deadline: processor_unavailable at once, nothing charged, the payment payable again", async () => {
    let calls = 0;
    const withdrawing = withProcessor({
      chargeCard: async (_charge, signal) => {
        calls++;
        await untilAborted(signal);
        throw new ProcessorCallWithdrawn();
      },
    });
    const id = await newPayment();
    const started = Date.now();
    const refused = await submit(id, "4242424242424242", withdrawing).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: "processor_unavailable", message: expect.stringContaining("nothing was charged") });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(calls).toBe(1);
    expect(await row(id)).toMatchObject({ status: "created", attempt_expires_at: null, authorized_at: null });
    expect((await submit(id, "4242424242424242")).payment.status).toBe("captured");
    expect(await eventsOf(id)).toEqual(["payment.succeeded"]);
  });

  test("a call still running at its deadline: the customer is answered, the payment is held, no second attempt, the late answer is recorded once", async () => {
    let calls = 0;
    let answer!: (outcome: CardOutcome) => void;
    const late = new Promise<CardOutcome>((resolve) => (answer = resolve));
    let aborted = false;
    const ignoring = withProcessor({
      chargeCard: async (_charge, signal) => {
        calls++;
        signal.addEventListener("abort", () => (aborted = true));
        return late;
      },
    });
    const id = await newPayment();
    const started = Date.now();
    const refused = await submit(id, "4242424242424242", ignoring).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: "processor_unavailable", message: expect.stringContaining("do not pay it again") });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(aborted).toBe(true);
    // Held: processing (the page waits), leased until the payment's own expiry.
    const held = await row(id);
    expect(held).toMatchObject({ status: "processing", challenge_pending: false, card_brand: null });
    expect(held.attempt_expires_at).toEqual(held.expires_at);
    // Another submit, the customer's cancel and the merchant's cancel wait for the first call's answer.
    expect(await codeOf(submit(id, "4242424242424242", ignoring))).toBe("payment_not_payable");
    expect(await codeOf(withoutTransaction(deps, (tx) => cancelCheckout(deps, tx, PUBLIC, id)))).toBe("payment_not_payable");
    expect(
      await codeOf(withoutTransaction(deps, (tx) => cancelPayment(deps, tx, merchantCaller(merchant.merchantId, "test"), { id, idempotencyKey: undefined }))),
    ).toBe("payment_not_payable");
    expect(calls).toBe(1);
    answer({ outcome: "authorized" });
    await expect.poll(async () => (await row(id)).status, { timeout: 5_000 }).toBe("captured");
    expect(await row(id)).toMatchObject({ attempt_expires_at: null, card_brand: "visa", card_last4: "4242" });
    expect(await eventsOf(id)).toEqual(["payment.succeeded"]);
    const captures = await sql().selectFrom("ledger_transactions").select("id").where("payment_id", "=", id).where("kind", "=", "capture").execute();
    expect(captures).toHaveLength(1);
    expect(calls).toBe(1);
  });
});

describe("bank transfer and cancel", () => {
  test("starting a bank transfer: processing, the account and a unique reference; again: the same", async () => {
    const id = await newPayment("bank_transfer");
    const first = await withoutTransaction(deps, (tx) => startBankTransfer(deps, tx, PUBLIC, id));
    expect(first.payment.status).toBe("processing");
    expect(first.bankTransfer).toMatchObject({ ...deps.config.sandbox.beneficiary, reference: expect.stringMatching(/^PT-[0-9A-HJKMNP-TV-Z]{10}$/) });
    const again = await withoutTransaction(deps, (tx) => startBankTransfer(deps, tx, PUBLIC, id));
    expect(again.bankTransfer).toEqual(first.bankTransfer);
    expect(again.payment.bank_transfer).toEqual(first.bankTransfer);
    const other = await withoutTransaction(deps, (tx) => startBankTransfer(deps, tx, PUBLIC, "pay_000000000000000000000000")).catch((e: DomainError) => e.code);
    expect(other).toBe("unknown_payment");
    const byCard = await newPayment("card");
    expect(await codeOf(withoutTransaction(deps, (tx) => startBankTransfer(deps, tx, PUBLIC, byCard)))).toBe("validation_error");
  });

  test("the customer's cancel: payable → canceled with payment.canceled; then not payable", async () => {
    const id = await newPayment();
    const result = await withoutTransaction(deps, (tx) => cancelCheckout(deps, tx, PUBLIC, id));
    expect(result).toMatchObject({ next: "redirect_cancel", payment: { status: "canceled", payable: false, reason: "canceled" } });
    expect(await eventsOf(id)).toEqual(["payment.canceled"]);
    expect(await codeOf(withoutTransaction(deps, (tx) => cancelCheckout(deps, tx, PUBLIC, id)))).toBe("payment_not_payable");
  });

  test("the merchant's cancel: scoped to merchant and mode, idempotent with a key", async () => {
    const me = merchantCaller(merchant.merchantId, "test");
    const id = await newPayment();
    const cancelAs = (caller = me, key?: string, paymentId = id) =>
      withoutTransaction(deps, (tx) => cancelPayment(deps, tx, caller, { id: paymentId, idempotencyKey: key }));
    expect(await codeOf(cancelAs(merchantCaller(merchant.merchantId, "live")))).toBe("unknown_payment");
    const other = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Otra", currencies: [], methods: [] }));
    expect(await codeOf(cancelAs(merchantCaller(other.merchantId, "test")))).toBe("unknown_payment");
    const first = await cancelAs(me, "cancel-key-1");
    expect(first.replayed).toBe(false);
    expect(first.value).toMatchObject({ id, status: "canceled" });
    const replay = await cancelAs(me, "cancel-key-1");
    expect(replay.replayed).toBe(true);
    expect(JSON.stringify(replay.value)).toBe(JSON.stringify(first.value));
    expect(await codeOf(cancelAs(me))).toBe("payment_not_payable");
    expect(await codeOf(cancelAs(me, "cancel-key-2"))).toBe("payment_not_payable");
    expect(await codeOf(cancelAs(me, "short"))).toBe("idempotency_key_required");
    // The same key for another payment is another request.
    expect(await codeOf(cancelAs(me, "cancel-key-1", await newPayment()))).toBe("idempotency_key_reused");
    expect(await eventsOf(id)).toEqual(["payment.canceled"]);
  });
});

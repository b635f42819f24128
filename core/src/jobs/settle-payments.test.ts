// Sandbox settlement and bank-transfer confirmation on a real database, driven by the test's clock.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { presentApiKey } from "../domain/api-keys.ts";
import { OPERATOR, PUBLIC } from "../domain/caller.ts";
import { startBankTransfer, submitCard } from "../domain/checkout-attempts.ts";
import { createPayment } from "../domain/create-payment.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { createMerchant, type CreatedMerchant } from "../domain/merchants.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { confirmBankTransfers } from "./confirm-bank-transfers.ts";
import { settleDuePayments } from "./settle-payments.ts";

let database: MigratedDatabase | undefined;
let clock = new Date("2026-11-22T12:00:00.000Z");
let deps: CoreDeps;
let merchant: CreatedMerchant;
const tick = (ms: number) => (clock = new Date(clock.getTime() + ms));

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => clock });
  deps = database.deps;
  merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Tienda", currencies: [], methods: [] }));
});

afterAll(() => database?.close());

let n = 0;
async function newPayment(method: "card" | "bank_transfer", key = merchant.testApiKey): Promise<string> {
  const input = { amount: "15000", currency: "GTQ", method_type: method, success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
  const created = await withoutTransaction(deps, (tx) => createPayment(deps, tx, presentApiKey(key), { idempotencyKey: `jobs-test-${n++}`, input }));
  return created.value.id;
}
const paid = async () => {
  const id = await newPayment("card");
  await withoutTransaction(deps, (tx) =>
    submitCard(deps, tx, PUBLIC, { paymentId: id, card: { number: "4242424242424242", exp_month: 1, exp_year: 2031, cvc: "999", holder_name: "A" } }),
  );
  return id;
};
const sql = () => db(database!.orm.em.fork());
const statuses = async (ids: string[]) =>
  (await sql().selectFrom("payments").select(["id", "status"]).where("id", "in", ids).orderBy("seq").execute()).map((r) => r.status);
const batch = { intervalMs: 1_000, batch: 2 };

describe("settlement", () => {
  test("captured → pending_settlement → settled_to_paytami → available_to_merchant, each on its delay, in batches", async () => {
    const [d0, d1, d2] = deps.config.settlementDelaysMs as [number, number, number];
    const ids = [await paid(), await paid(), await paid()];
    const live = await newPayment("card", merchant.liveApiKey);
    await sql().updateTable("payments").set({ status: "captured", captured_at: clock }).where("id", "=", live).execute();
    expect(await settleDuePayments(deps, batch)).toEqual({ available_to_merchant: 0, settled_to_paytami: 0, pending_settlement: 0 });
    tick(d0);
    // Three due with batches of two: the run claims again until a claim comes back short.
    expect(await settleDuePayments(deps, batch)).toMatchObject({ pending_settlement: 3, settled_to_paytami: 0 });
    expect(await statuses(ids)).toEqual(["pending_settlement", "pending_settlement", "pending_settlement"]);
    tick(d1 - 1);
    expect(await settleDuePayments(deps, batch)).toMatchObject({ settled_to_paytami: 0 });
    tick(1);
    expect(await settleDuePayments(deps, batch)).toMatchObject({ settled_to_paytami: 3, available_to_merchant: 0 });
    tick(d2);
    expect(await settleDuePayments(deps, batch)).toMatchObject({ available_to_merchant: 3 });
    expect(await statuses(ids)).toEqual(["available_to_merchant", "available_to_merchant", "available_to_merchant"]);
    // Each step stamped its state once, in order; live payments are the live processor's to settle.
    const stamps = await sql()
      .selectFrom("payments")
      .select(["captured_at", "pending_settlement_at", "settled_to_paytami_at", "available_to_merchant_at"])
      .where("id", "=", ids[0]!)
      .executeTakeFirstOrThrow();
    expect(stamps.pending_settlement_at!.getTime() - stamps.captured_at!.getTime()).toBe(d0);
    expect(stamps.available_to_merchant_at!.getTime() - stamps.settled_to_paytami_at!.getTime()).toBe(d2);
    expect(await statuses([live])).toEqual(["captured"]);
  });
});

describe("bank-transfer confirmation", () => {
  test("a started test-mode transfer is captured BANK_TRANSFER_CONFIRM_AFTER later, with payment.succeeded", async () => {
    const id = await newPayment("bank_transfer");
    const waiting = await newPayment("bank_transfer");
    await withoutTransaction(deps, (tx) => startBankTransfer(deps, tx, PUBLIC, id));
    expect(await confirmBankTransfers(deps, batch)).toEqual({});
    tick(deps.config.bankTransferConfirmAfterMs);
    expect(await confirmBankTransfers(deps, batch)).toEqual({ captured: 1 });
    expect(await statuses([id, waiting])).toEqual(["captured", "created"]);
    const events = await sql().selectFrom("outbox_events").select(["type", "envelope"]).execute();
    expect(events.filter((e) => (e.envelope as { data: { id: string } }).data.id === id).map((e) => e.type)).toEqual(["payment.succeeded"]);
  });
});

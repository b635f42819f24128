// Checkout on an overdue payment that the expiry job has not reached yet: the payment is expired on
// the spot and stays expired, even though the same call then refuses it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { presentApiKey } from "./api-keys.ts";
import { OPERATOR, PUBLIC } from "./caller.ts";
import { getCheckoutSession, getHostedPayment, resolveCheckout } from "./checkout.ts";
import { createPayment } from "./create-payment.ts";
import { DomainError } from "./errors.ts";
import { createMerchant } from "./merchants.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let clock = new Date("2026-11-22T12:00:00.000Z");

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => clock });
});

afterAll(() => database?.close());

async function overduePayment(): Promise<string> {
  const { deps } = database!;
  const m = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Tienda", currencies: [], methods: [] }));
  const input = { amount: "15000", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
  const created = await withoutTransaction(deps, (tx) =>
    createPayment(deps, tx, presentApiKey(m.testApiKey), { idempotencyKey: `overdue-${clock.getTime()}-${Math.random()}`, input }),
  );
  // Past PAYMENT_TTL, with no expiry job running in this process.
  clock = new Date(clock.getTime() + deps.config.paymentTtlMs + 1_000);
  return created.value.id;
}

const statusOf = async (id: string) =>
  await db(database!.orm.em.fork()).selectFrom("payments").select(["status", "expired_at"]).where("id", "=", id).executeTakeFirstOrThrow();

describe("checkout of an overdue payment", () => {
  test("GET /v1/checkout answers payment_not_payable, and the expiry it found is kept", async () => {
    const { deps } = database!;
    const id = await overduePayment();
    const refused = await withoutTransaction(deps, (tx) => resolveCheckout(deps, tx, PUBLIC, id)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe("payment_not_payable");
    expect(await statusOf(id)).toEqual({ status: "expired", expired_at: clock });
  });

  test("the checkout session and the hosted page see it expired", async () => {
    const { deps } = database!;
    const id = await overduePayment();
    expect(await withoutTransaction(deps, (tx) => getCheckoutSession(deps, tx, PUBLIC, id))).toEqual({ payment_id: id, payable: false, reason: "expired" });
    expect(await withoutTransaction(deps, (tx) => getHostedPayment(deps, tx, PUBLIC, id))).toMatchObject({
      status: "expired",
      payable: false,
      reason: "expired",
    });
    expect((await statusOf(id)).status).toBe("expired");
  });
});

// createPayment for a merchant the transport already resolved (the dashboard's session, next):
// the path no transport takes yet, against a real migrated database.
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { Payment } from "../db/entities/index.ts";
import { presentApiKey } from "./api-keys.ts";
import { merchantCaller, OPERATOR, type MerchantCaller, type PresentedCredential } from "./caller.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { createMerchant, type CreatedMerchant } from "./merchants.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let orm: MikroORM;
let deps: CoreDeps;
let merchant: CreatedMerchant;
let gtqCardOnly: CreatedMerchant;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date("2026-11-21T12:00:00.000Z") });
  ({ orm, deps } = database);
  merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Sesión", currencies: [], methods: [] }));
  gtqCardOnly = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Solo GTQ", currencies: ["GTQ"], methods: ["card"] }));
});

afterAll(() => database?.close());

const body = (overrides: Record<string, unknown> = {}) => ({
  amount: "10000", currency: "GTQ", method_type: "card",
  success_url: "https://shop.example/ok", cancel_url: "https://shop.example/back", ...overrides,
});

const create = (payer: PresentedCredential | MerchantCaller, idempotencyKey: string, input: unknown) =>
  withoutTransaction(deps, (tx) => createPayment(deps, tx, payer, { idempotencyKey, input }));

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "created",
    (error: unknown) => (error instanceof DomainError ? error.code : error),
  );

describe("createPayment for a resolved merchant", () => {
  test("creates the payment in the caller's merchant and mode", async () => {
    const result = await create(merchantCaller(merchant.merchantId, "live"), "session-key-1", body({ amount: "12345" }));
    expect(result.replayed).toBe(false);
    const view = JSON.parse(result.response) as { id: string; amount: string; status: string };
    expect(view).toMatchObject({ amount: "12345", status: "created" });
    const stored = await orm.em.fork().findOneOrFail(Payment, view.id);
    expect(stored).toMatchObject({ merchant_id: merchant.merchantId, mode: "live", amount: "12345" });
  });

  test("shares the idempotency scope of the merchant's API key of the same mode, and only that", async () => {
    const first = await create(merchantCaller(merchant.merchantId, "test"), "shared-key-1", body());
    const byKey = await create(presentApiKey(merchant.testApiKey), "shared-key-1", body());
    expect(byKey).toEqual({ response: first.response, replayed: true });
    expect(await codeOf(create(presentApiKey(merchant.testApiKey), "shared-key-1", body({ amount: "20000" })))).toBe("idempotency_key_reused");
    // Another mode is another scope.
    const live = await create(presentApiKey(merchant.liveApiKey), "shared-key-1", body());
    expect(live.replayed).toBe(false);
    expect(live.response).not.toBe(first.response);
  });

  test("the merchant's own policy refuses what it does not take, and nothing is written", async () => {
    const caller = merchantCaller(gtqCardOnly.merchantId, "test");
    const before = await orm.em.fork().count(Payment, { merchant_id: gtqCardOnly.merchantId });
    expect(await codeOf(create(caller, "policy-key-1", body({ currency: "USD", amount: "1000" })))).toBe("currency_not_supported");
    expect(await codeOf(create(caller, "policy-key-2", body({ method_type: "bank_transfer" })))).toBe("method_not_supported");
    expect(await orm.em.fork().count(Payment, { merchant_id: gtqCardOnly.merchantId })).toBe(before);
    expect(await codeOf(create(caller, "policy-key-3", body()))).toBe("created");
  });

  test("a merchant that does not exist is unauthorized, before the body is looked at", async () => {
    expect(await codeOf(create(merchantCaller("mer_000000000000000000000000", "test"), "nobody-key-1", body()))).toBe("unauthorized");
    expect(await codeOf(create(merchantCaller("mer_000000000000000000000000", "test"), "nobody-key-2", { amount: 5 }))).toBe("unauthorized");
  });
});

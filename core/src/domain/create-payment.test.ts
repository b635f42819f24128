// Payment creation as a domain operation, for the callers that are not an API key: a merchant the
// transport already resolved (the dashboard's session) goes through the same piece as REST.
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { presentApiKey } from "./api-keys.ts";
import { merchantCaller, OPERATOR } from "./caller.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { createMerchant } from "./merchants.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let orm: MikroORM;
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => new Date() });
  ({ orm, deps } = database);
});

afterAll(() => database?.close());

const input = (overrides: Record<string, unknown> = {}) => ({
  amount: "15000",
  currency: "GTQ",
  method_type: "card",
  success_url: "https://shop.example/ok",
  cancel_url: "https://shop.example/no",
  ...overrides,
});

const newMerchant = (currencies: string[] = [], methods: string[] = []) =>
  inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Tienda", currencies, methods }));

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "created",
    (error: unknown) => (error instanceof DomainError ? error.code : error),
  );

describe("createPayment for a resolved merchant (dashboard session)", () => {
  test("creates the payment in the merchant's mode, and shares the idempotency scope with its API keys", async () => {
    const m = await newMerchant();
    const caller = merchantCaller(m.merchantId, "test");
    const first = await withoutTransaction(deps, (tx) => createPayment(deps, tx, caller, { idempotencyKey: "dash-key-0001", input: input() }));
    expect(first.replayed).toBe(false);
    const payment = first.value;
    expect(payment).toMatchObject({ status: "created", amount: "15000", currency: "GTQ", service_fee: "725" });
    const row = await db(orm.em.fork()).selectFrom("payments").select(["merchant_id", "mode"]).where("id", "=", payment.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ merchant_id: m.merchantId, mode: "test" });

    // The same key through the merchant's API key replays the dashboard's payment: one scope per merchant and mode.
    const viaKey = await withoutTransaction(deps, (tx) =>
      createPayment(deps, tx, presentApiKey(m.testApiKey), { idempotencyKey: "dash-key-0001", input: input() }),
    );
    expect(viaKey.replayed).toBe(true);
    expect(JSON.stringify(viaKey.value)).toBe(JSON.stringify(first.value));
    expect(
      await codeOf(
        withoutTransaction(deps, (tx) =>
          createPayment(deps, tx, presentApiKey(m.testApiKey), { idempotencyKey: "dash-key-0001", input: input({ amount: "15001" }) }),
        ),
      ),
    ).toBe("idempotency_key_reused");
    // ...but not across modes.
    const live = await withoutTransaction(deps, (tx) =>
      createPayment(deps, tx, merchantCaller(m.merchantId, "live"), { idempotencyKey: "dash-key-0001", input: input() }),
    );
    expect(live.replayed).toBe(false);
    expect(live.value.id).not.toBe(payment.id);
  });

  test("a merchant with a narrower policy is priced again against its own: refusals in DESIGN's order, nothing written", async () => {
    const m = await newMerchant(["GTQ"], ["card"]);
    const caller = merchantCaller(m.merchantId, "test");
    const count = async () =>
      Number(
        (
          await db(orm.em.fork())
            .selectFrom("payments")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("merchant_id", "=", m.merchantId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const attempt = (key: string, overrides: Record<string, unknown>) =>
      codeOf(withoutTransaction(deps, (tx) => createPayment(deps, tx, caller, { idempotencyKey: key, input: input(overrides) })));
    expect(await attempt("narrow-0001", { currency: "USD", amount: "50" })).toBe("currency_not_supported");
    expect(await attempt("narrow-0002", { method_type: "bank_transfer" })).toBe("method_not_supported");
    expect(await count()).toBe(0);
    expect(await attempt("narrow-0003", {})).toBe("created");
    expect(await count()).toBe(1);

    // The process remembers the narrow policy as a pricing hint; when the merchant's policy widens,
    // the stale hint must not refuse what the merchant now accepts.
    await db(orm.em.fork())
      .updateTable("merchants")
      .set({ currencies: ["GTQ", "USD"], methods: ["card", "bank_transfer"] })
      .where("id", "=", m.merchantId)
      .execute();
    expect(await attempt("narrow-0004", { currency: "USD", amount: "500" })).toBe("created");
    expect(await attempt("narrow-0005", { method_type: "bank_transfer" })).toBe("created");
    // And when it narrows again, the statement's policy check refuses what the hint would have let through.
    await db(orm.em.fork())
      .updateTable("merchants")
      .set({ currencies: ["GTQ"] })
      .where("id", "=", m.merchantId)
      .execute();
    expect(await attempt("narrow-0006", { currency: "USD", amount: "500" })).toBe("currency_not_supported");
    expect(await count()).toBe(3);
  });

  test("an unknown merchant is unauthorized, like an unknown API key", async () => {
    const caller = merchantCaller("mer_000000000000000000000000", "test");
    expect(await codeOf(withoutTransaction(deps, (tx) => createPayment(deps, tx, caller, { idempotencyKey: "nobody-0001", input: input() })))).toBe(
      "unauthorized",
    );
    // Before the body is looked at (DESIGN §4 check order).
    expect(await codeOf(withoutTransaction(deps, (tx) => createPayment(deps, tx, caller, { idempotencyKey: "nobody-0002", input: { amount: 5 } })))).toBe(
      "unauthorized",
    );
  });
});

// CARD_SUBMIT_LIMIT against a real migrated database, through submitCard with the sandbox processor:
// every submit counts (declines and processor errors included) per client and per payment, a
// submit refused by its client's limit does not use up the payment, and nothing reaches the
// processor once refused.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { presentApiKey } from "./api-keys.ts";
import { OPERATOR, PUBLIC } from "./caller.ts";
import { admitCardSubmit } from "./card-submit-limit.ts";
import { submitCard } from "./checkout-attempts.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { createMerchant, type CreatedMerchant } from "./merchants.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
// Each test moves the clock to a window of its own (10 minutes, the default window).
let clock = new Date("2026-11-22T12:00:00.000Z");
let merchant: CreatedMerchant;
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => clock });
  deps = { ...database.deps, config: { ...database.deps.config, cardSubmitLimit: { perPayment: 3, perIp: 5, windowMs: 600_000 } } };
  merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Tienda", currencies: [], methods: [] }));
});

afterAll(() => database?.close());

let window = 0;
const nextWindow = () => {
  clock = new Date(Date.parse("2026-11-22T12:00:00.000Z") + 600_000 * ++window + 30_000);
};

let n = 0;
async function newPayment(): Promise<string> {
  const input = { amount: "15050", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
  const created = await withoutTransaction(deps, (tx) =>
    createPayment(deps, tx, presentApiKey(merchant.testApiKey), { idempotencyKey: `card-limit-${n++}`, input }),
  );
  return created.value.id;
}

const card = (number: string) => ({ number, exp_month: 12, exp_year: 2030, cvc: "123", holder_name: "Ana López" });
const submit = (id: string, number: string, clientIp?: string) =>
  withoutTransaction(deps, (tx) => submitCard(deps, tx, { ...PUBLIC, clientIp }, { paymentId: id, card: card(number) })).then(
    (o) => o.payment.status as string,
    (e: unknown) => (e instanceof DomainError ? `${e.code}${e.retryAfterSeconds ? ` ${e.retryAfterSeconds}` : ""}: ${e.message}` : String(e)),
  );
const statusOf = async (id: string) =>
  (await db(database!.orm.em.fork()).selectFrom("payments").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

describe("CARD_SUBMIT_LIMIT", () => {
  test("per client: declines count; past the limit nothing reaches the processor, another client still pays", async () => {
    nextWindow();
    const ids = await Promise.all(Array.from({ length: 8 }, () => newPayment()));
    const outcomes = [];
    for (const id of ids.slice(0, 7)) outcomes.push(await submit(id, "4000000000000002", "203.0.113.1"));
    expect(outcomes.slice(0, 5)).toEqual(Array(5).fill("failed"));
    // 30 s into a 10-minute window: 570 s to wait.
    expect(outcomes.slice(5)).toEqual(Array(2).fill("rate_limited 570: Too many card attempts from this address; retry later."));
    expect(await statusOf(ids[6]!)).toBe("created");
    expect(await submit(ids[7]!, "4242424242424242", "198.51.100.1")).toBe("captured");
  });

  test("per payment: processor errors count, whichever address they come from", async () => {
    nextWindow();
    const id = await newPayment();
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await submit(id, "4000000000000119", `198.51.100.${10 + i}`));
    expect(outcomes.slice(0, 3).every((o) => o.startsWith("processor_unavailable"))).toBe(true);
    expect(outcomes.slice(3).every((o) => o.startsWith("rate_limited 570: Too many card attempts on this payment"))).toBe(true);
    expect(await statusOf(id)).toBe("created");
  });

  test("a submit refused by its client's limit does not use up the payment; internal callers count per payment only", async () => {
    nextWindow();
    const spent = await Promise.all(Array.from({ length: 5 }, () => newPayment()));
    for (const id of spent) expect(await submit(id, "4000000000000002", "2001:db8:5:6::1")).toBe("failed");
    const id = await newPayment();
    // Another address of the same /64 is the same client.
    for (let i = 0; i < 6; i++) expect(await submit(id, "4242424242424242", `2001:db8:5:6::${i + 2}`)).toMatch(/^rate_limited .*from this address/);
    const rows = await db(database!.orm.em.fork())
      .selectFrom("link_rate_limits")
      .select(["bucket", "attempts"])
      .where("bucket", "like", "card-%")
      .where("window_start", "=", new Date(Math.floor(clock.getTime() / 600_000) * 600_000))
      .execute();
    expect(rows.find((r) => r.bucket === `card-payment:${id}`)).toBeUndefined();
    expect(rows.find((r) => r.bucket === "card-ip:2001:db8:5:6::/64")?.attempts).toBe(11);
    expect(await submit(id, "4000000000000119")).toMatch(/^processor_unavailable/);
    expect(await submit(id, "4242424242424242")).toBe("captured");
  });

  test("unknown payments count nowhere", async () => {
    nextWindow();
    for (let i = 0; i < 10; i++) {
      await withoutTransaction(deps, (tx) => admitCardSubmit(deps.config, tx, "pay_000000000000000000000000", "203.0.113.99", clock));
    }
    expect(await submit("pay_000000000000000000000000", "4242424242424242", "203.0.113.99")).toMatch(/^unknown_payment/);
    const rows = await db(database!.orm.em.fork()).selectFrom("link_rate_limits").select("bucket").where("bucket", "like", "%203.0.113.99%").execute();
    expect(rows).toEqual([]);
  });
});

// Group commit (batch.ts) against a real PostgreSQL: the batched path answers every request exactly
// as the unbatched one does, and same-key requests in one batch still make exactly one payment.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../../test/support/database.ts";
import { db } from "../../db/orm.ts";
import { presentApiKey } from "../api-keys.ts";
import { OPERATOR } from "../caller.ts";
import { createPayment } from "../create-payment.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError } from "../errors.ts";
import { createMerchant } from "../merchants.ts";
import { inTransaction, withoutTransaction } from "../unit-of-work.ts";
import { batchFailures, batchSizes } from "./batch.ts";

let database: MigratedDatabase | undefined;
let unbatched: CoreDeps;
let batched: CoreDeps;
let credentials: string[];

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 8, now: () => new Date() });
  const { deps } = database;
  unbatched = { ...deps, config: { ...deps.config, createBatch: { on: false, max: 64, waitMs: 1 } } };
  batched = { ...deps, config: { ...deps.config, createBatch: { on: true, max: 8, waitMs: 1 } } };
  const wide = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Wide", currencies: [], methods: [] }));
  const narrow = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Narrow", currencies: ["GTQ"], methods: ["card"] }));
  // A merchant in both modes (two idempotency scopes), one with a narrower policy, and a key that is nobody's.
  credentials = [wide.testApiKey, wide.liveApiKey ?? wide.testApiKey, narrow.testApiKey, `sk_test_${"0".repeat(32)}`];
});

afterAll(() => database?.close());

const BODIES: unknown[] = [
  { amount: "15000", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" },
  { amount: "15001", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no", description: "otra" },
  { amount: "500", currency: "USD", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" },
  { amount: "900", currency: "GTQ", method_type: "bank_transfer", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" },
  { amount: "12", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" },
  { amount: 15000, currency: "GTQ", method_type: "card" },
  { amount: "500", currency: "USD", method_type: "bank_transfer", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" },
];

interface Request {
  credential: number;
  /** Index into a small pool of keys (so keys repeat), or a key that is refused before anything. */
  key: number | "missing" | "unprintable";
  body: number;
}

const request = fc.record<Request>({
  credential: fc.integer({ min: 0, max: 3 }),
  key: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 5 }) }, fc.constant("missing" as const), fc.constant("unprintable" as const)),
  body: fc.integer({ min: 0, max: BODIES.length - 1 }),
});

/** A request's answer without what differs between any two runs (ids, times). */
async function answer(deps: CoreDeps, r: Request, prefix: string): Promise<unknown> {
  const idempotencyKey = r.key === "missing" ? undefined : r.key === "unprintable" ? `${prefix}-\u00e9` : `${prefix}-${r.key}`;
  try {
    const { value, replayed } = await withoutTransaction(deps, (tx) =>
      createPayment(deps, tx, presentApiKey(credentials[r.credential]), { idempotencyKey, input: BODIES[r.body] }),
    );
    const { id, created_at, ...rest } = value as unknown as Record<string, unknown>;
    // The id also appears inside other fields (checkout_url).
    const payment = JSON.parse(JSON.stringify(rest).replaceAll(String(id), "<id>")) as unknown;
    return { replayed, payment, id: typeof id, created_at: typeof created_at };
  } catch (error) {
    if (error instanceof DomainError) return { error: error.code };
    throw error;
  }
}

/**
 * The requests in rounds: round k holds the k-th request of every key, all at once. Within a round
 * no key repeats, so which same-key request wins is fixed by the order (a race between same-key
 * requests would make the two paths differ for a reason that is not theirs).
 */
async function run(deps: CoreDeps, requests: Request[], prefix: string): Promise<unknown[]> {
  const seen = new Map<string, number>();
  const rounds: number[][] = [];
  requests.forEach((r, i) => {
    const name = String(r.key);
    const k = seen.get(name) ?? 0;
    seen.set(name, k + 1);
    (rounds[k] ??= []).push(i);
  });
  const answers: unknown[] = [];
  for (const round of rounds) {
    const got = await Promise.all(round.map((i) => answer(deps, requests[i]!, prefix)));
    round.forEach((i, j) => (answers[i] = got[j]));
  }
  return answers;
}

const paymentCount = async () =>
  Number(
    (
      await db(database!.orm.em.fork())
        .selectFrom("payments")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

let runs = 0;

describe("group commit of charge creation", () => {
  test("the batched path answers every request as the unbatched one does, and makes one payment per 201", async () => {
    const before = batchSizes.reduce((n, count, size) => n + (size > 1 ? count : 0), 0);
    const failuresBefore = batchFailures.count;
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 40 }), async (requests) => {
        runs += 1;
        const start = await paymentCount();
        const plain = await run(unbatched, requests, `gc-${runs}-plain`);
        const grouped = await run(batched, requests, `gc-${runs}-batch`);
        expect(grouped).toEqual(plain);
        const created = plain.filter((a) => (a as { replayed?: boolean }).replayed === false).length;
        expect(await paymentCount()).toBe(start + 2 * created);
      }),
      { numRuns: 25 },
    );
    // The property exercised real batches, not only lone requests.
    expect(batchSizes.reduce((n, count, size) => n + (size > 1 ? count : 0), 0)).toBeGreaterThan(before);
    // ...and every batch statement did its work itself (a failed one falls back to single statements, which would hide it).
    expect(batchFailures.count).toBe(failuresBefore);
  });

  test("same-key requests arriving together make exactly one payment; the others replay it or get 409", async () => {
    const key = "gc-same-key-0001";
    const bodies = Array.from({ length: 30 }, (_, i) => BODIES[i % 3 === 0 ? 1 : 0]);
    const answers = await Promise.all(bodies.map((body) => answer(batched, { credential: 0, key: 0, body: BODIES.indexOf(body) }, key)));
    const made = answers.filter((a) => (a as { replayed?: boolean }).replayed === false);
    expect(made).toHaveLength(1);
    const winner = (made[0] as { payment: { amount: string } }).payment.amount;
    answers.forEach((a, i) => {
      const sameBody = (bodies[i] as { amount: string }).amount === winner;
      if (sameBody) expect(a).toEqual({ ...(made[0] as object), replayed: (a as { replayed: boolean }).replayed });
      else expect(a).toEqual({ error: "idempotency_key_reused" });
    });
    const rows = await db(database!.orm.em.fork()).selectFrom("idempotency_keys").select("resource_id").where("key", "=", `${key}-0`).execute();
    expect(rows).toHaveLength(1);
    const payments = await db(database!.orm.em.fork()).selectFrom("payments").select("id").where("id", "=", rows[0]!.resource_id).execute();
    expect(payments).toHaveLength(1);
    expect(batchFailures.count).toBe(0);
  });
});

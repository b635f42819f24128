// Merchant and key administration through the EntityManager, against a real migrated database.
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiKeyDigest } from "../../../proto/api-key-digest.ts";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { ApiKey, Merchant } from "../db/entities/index.ts";
import * as apiKeys from "./api-keys.ts";
import { OPERATOR } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import * as merchants from "./merchants.ts";
import { inTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let orm: MikroORM;
let deps: CoreDeps;
let clock = new Date("2026-11-21T12:00:00.000Z");

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => clock });
  ({ orm, deps } = database);
});

afterAll(() => database?.close());

// Each operation in its own transaction, as the transports run them.
const createMerchant = (input: Parameters<typeof merchants.createMerchant>[3]) =>
  inTransaction(deps, (tx) => merchants.createMerchant(deps, tx, OPERATOR, input));
const createApiKey = (input: Parameters<typeof apiKeys.createApiKey>[3]) => inTransaction(deps, (tx) => apiKeys.createApiKey(deps, tx, OPERATOR, input));
const revokeApiKey = (id: string) => inTransaction(deps, (tx) => apiKeys.revokeApiKey(deps, tx, OPERATOR, id));

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof DomainError ? error.code : error),
  );

describe("createMerchant", () => {
  test("writes the merchant and one test and one live key, storing only their digests", async () => {
    const created = await createMerchant({ name: "  Tienda EM  ", currencies: ["GTQ", "GTQ"], methods: [] });
    const em = orm.em.fork();
    const merchant = await em.findOneOrFail(Merchant, created.merchantId);
    expect(merchant).toMatchObject({ name: "Tienda EM", trade_name: "Tienda EM", currencies: ["GTQ"], methods: ["card", "bank_transfer"] });
    expect(merchant.created_at.toISOString()).toBe(clock.toISOString());
    const keys = await em.find(ApiKey, { merchant_id: created.merchantId }, { orderBy: { mode: "asc" } });
    expect(keys.map((k) => [k.mode, k.digest, k.last4, k.revoked_at])).toEqual([
      ["live", apiKeyDigest(created.liveApiKey), created.liveApiKey.slice(-4), null],
      ["test", apiKeyDigest(created.testApiKey), created.testApiKey.slice(-4), null],
    ]);
  });
});

describe("createApiKey and revokeApiKey", () => {
  test("a key for an unknown merchant is a validation_error and nothing is written", async () => {
    const before = await orm.em.fork().count(ApiKey);
    expect(await codeOf(createApiKey({ merchantId: "mer_nobody", mode: "test" }))).toBe("validation_error");
    expect(await orm.em.fork().count(ApiKey)).toBe(before);
  });

  test("a new key is stored with its expiry; revoking keeps the first revocation time; unknown ids fail", async () => {
    const { merchantId } = await createMerchant({ name: "Llaves", currencies: [], methods: [] });
    const issued = await createApiKey({ merchantId, mode: "live", expiresAt: "2027-01-01T00:00:00.000Z" });
    const stored = await orm.em.fork().findOneOrFail(ApiKey, issued.id);
    expect(stored).toMatchObject({ merchant_id: merchantId, mode: "live", digest: apiKeyDigest(issued.apiKey), revoked_at: null });
    expect(stored.expires_at?.toISOString()).toBe("2027-01-01T00:00:00.000Z");

    const first = clock;
    expect(await revokeApiKey(issued.id)).toEqual({ id: issued.id, revoked: true });
    clock = new Date(first.getTime() + 60_000);
    expect(await revokeApiKey(issued.id)).toEqual({ id: issued.id, revoked: true });
    expect((await orm.em.fork().findOneOrFail(ApiKey, issued.id)).revoked_at?.toISOString()).toBe(first.toISOString());

    expect(await codeOf(revokeApiKey("key_nobody"))).toBe("validation_error");
  });
});

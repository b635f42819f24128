// GET /v1/balance, /v1/payouts[/{id}] and /v1/chargebacks[/{id}] through the real facade and core:
// a merchant's API key sees its own objects of its own mode and nothing else, whatever ids it sends;
// lists page by keyset like GET /v1/payments; unknown ids and bad queries answer catalog errors.
import { beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { createOk, expectError, useStack } from "./support/expect.ts";
import type { Res } from "./support/http.ts";
import type { Merchant } from "./support/stack.ts";

const getStack = useStack({ env: { PAYOUT_SCHEDULE: "off" } });
const TEST = modeCodec.fromWire("test");

interface Fixture {
  merchant: Merchant;
  payouts: string[];
  chargebacks: string[];
}
let a: Fixture;
let b: Fixture;

async function captured(m: Merchant, amount: string): Promise<string> {
  const id = (await createOk(getStack().http, m.testApiKey, { amount })).id as string;
  await getStack().admin.simulate(id, "succeed");
  return id;
}

/** A merchant with `payouts` completed payouts and `chargebacks` open chargebacks in test mode, and a pending payment. */
async function fixture(name: string, payouts: number, chargebacks: number): Promise<Fixture> {
  const { core, admin } = getStack();
  const merchant = await admin.createMerchant({ name });
  await core.payouts.addBankAccount({ merchant_id: merchant.merchantId, mode: TEST, currency: "GTQ", account_number: "000123456789" });
  const payoutIds: string[] = [];
  for (let i = 0; i < payouts; i++) {
    await admin.simulate(await captured(merchant, String(10_000 + i * 1000)), "settle");
    const { payout } = await core.payouts.requestPayout({ merchant_id: merchant.merchantId, mode: TEST, currency: "GTQ" });
    payoutIds.push(payout!.id);
  }
  const chargebackIds: string[] = [];
  for (let i = 0; i < chargebacks; i++) {
    const { chargeback } = await core.payouts.simulateChargeback({ payment_id: await captured(merchant, "5000"), action: "open" });
    chargebackIds.push(chargeback!.id);
  }
  await captured(merchant, "7000"); // captured, still pending
  return { merchant, payouts: payoutIds.reverse(), chargebacks: chargebackIds.reverse() };
}

beforeAll(async () => {
  [a, b] = await Promise.all([fixture("Tienda Lecturas A", 3, 3), fixture("Tienda Lecturas B", 1, 1)]);
});

const get = (path: string, key: string | undefined): Promise<Res> => getStack().http.get(path, { key });

/** The merchant's test-mode balances as sums of its ledger lines, per currency. */
async function ledgerBalances(merchantId: string, mode: string): Promise<Record<string, Record<string, string>>> {
  const rows = await getStack().sql<{ currency: string; account: string; total: string }>(
    "select currency, account, sum(amount)::text as total from ledger_lines where merchant_id = $1 and mode = $2 and account like 'merchant_%' group by currency, account",
    [merchantId, mode],
  );
  const out: Record<string, Record<string, string>> = {};
  for (const row of rows) (out[row.currency] ??= {})[row.account.replace("merchant_", "")] = row.total;
  return out;
}

describe("GET /v1/balance", () => {
  test("pending, available and in transit per currency, as the ledger sums them, for the key's merchant and mode", async () => {
    const res = await get("/v1/balance", a.merchant.testApiKey);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json)).toEqual(["mode", "balances"]);
    expect(res.json.mode).toBe("test");
    const sums = await ledgerBalances(a.merchant.merchantId, "test");
    // Three payouts took what was available; one payment is still pending; three chargebacks took their amounts from available.
    expect(res.json.balances).toEqual([
      { currency: "GTQ", pending: sums.GTQ!.pending ?? "0", available: sums.GTQ!.available ?? "0", in_transit: sums.GTQ!.in_transit ?? "0" },
      { currency: "USD", pending: "0", available: "0", in_transit: "0" },
    ]);
    expect(BigInt(res.json.balances[0].pending)).toBeGreaterThan(0n);
    expect(BigInt(res.json.balances[0].available)).toBe(-3n * 5000n);

    const other = await get("/v1/balance", b.merchant.testApiKey);
    expect(other.json.balances[0].available).toBe("-5000");
    const live = await get("/v1/balance", a.merchant.liveApiKey);
    expect(live.status, live.text).toBe(200);
    expect(live.json).toEqual({
      mode: "live",
      balances: [
        { currency: "GTQ", pending: "0", available: "0", in_transit: "0" },
        { currency: "USD", pending: "0", available: "0", in_transit: "0" },
      ],
    });
  });
});

const KINDS = [
  { path: "/v1/payouts", ids: (f: Fixture) => f.payouts, prefix: "payout_" },
  { path: "/v1/chargebacks", ids: (f: Fixture) => f.chargebacks, prefix: "chb_" },
] as const;

describe.each(KINDS)("$path", ({ path, ids, prefix }) => {
  test("lists the key's merchant's own, newest first; pages by starting_after without repeats", async () => {
    const all = await get(path, a.merchant.testApiKey);
    expect(all.status, all.text).toBe(200);
    expect(Object.keys(all.json)).toEqual(["data", "has_more"]);
    expect(all.json.data.map((o: { id: string }) => o.id)).toEqual(ids(a));
    expect(all.json.has_more).toBe(false);

    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await get(`${path}?limit=2${after ? `&starting_after=${after}` : ""}`, a.merchant.testApiKey);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.json.data.map((o: { id: string }) => o.id));
      if (!page.json.has_more) break;
      expect(page.json.data).toHaveLength(2);
      after = page.json.data.at(-1).id;
    }
    expect(seen).toEqual(ids(a));

    expect((await get(path, b.merchant.testApiKey)).json.data.map((o: { id: string }) => o.id)).toEqual(ids(b));
  });

  test("one by id, exactly as listed; another merchant's or mode's answers like an unknown id (404 validation_error)", async () => {
    const listed = (await get(path, a.merchant.testApiKey)).json.data[0];
    const own = await get(`${path}/${listed.id}`, a.merchant.testApiKey);
    expect(own.status, own.text).toBe(200);
    expect(own.json).toEqual(listed);
    expect(own.json.id.startsWith(prefix)).toBe(true);

    const unknown = await get(`${path}/${prefix}${"0".repeat(24)}`, a.merchant.testApiKey);
    expectError(unknown, 404, "validation_error");
    for (const [key, id] of [
      [b.merchant.testApiKey, listed.id],
      [a.merchant.liveApiKey, listed.id],
      [a.merchant.testApiKey, ids(b)[0]!],
      [a.merchant.testApiKey, "not-an-id"],
      [a.merchant.testApiKey, "pay_000000000000000000000000"],
    ]) {
      const res = await get(`${path}/${id}`, key);
      expectError(res, 404, "validation_error");
      expect(res.json.error.message.replace(id, "ID")).toBe(unknown.json.error.message.replace(`${prefix}${"0".repeat(24)}`, "ID"));
    }
  });

  test("the live key sees none of the test objects; another merchant's or mode's id is no cursor", async () => {
    expect((await get(path, a.merchant.liveApiKey)).json).toEqual({ data: [], has_more: false });
    expectError(await get(`${path}?starting_after=${ids(b)[0]}`, a.merchant.testApiKey), 400, "validation_error");
    expectError(await get(`${path}?starting_after=${ids(a)[0]}`, a.merchant.liveApiKey), 400, "validation_error");
  });

  test.each(["limit=0", "limit=101", "limit=abc", "limit=1.5", "limit=1&limit=2", "starting_after=x&starting_after=y", "status=opened", "merchant_id=mer_x"])(
    "?%s is validation_error",
    async (query) => {
      expectError(await get(`${path}?${query}`, a.merchant.testApiKey), 400, "validation_error");
    },
  );
});

describe("authentication", () => {
  const paths = () => ["/v1/balance", "/v1/payouts", `/v1/payouts/${a.payouts[0]}`, "/v1/chargebacks", `/v1/chargebacks/${a.chargebacks[0]}`];

  test("no key, a malformed key, an unknown key and a revoked key are 401 unauthorized on every read", async () => {
    const revoked = await getStack().admin.createKey(a.merchant.merchantId, "test");
    await getStack().admin.revokeKey(revoked.id);
    for (const path of paths()) {
      for (const key of [undefined, "nope", `sk_test_${"A".repeat(32)}`, revoked.apiKey]) expectError(await get(path, key), 401, "unauthorized");
    }
  });

  test("an unauthenticated bad query is still 401 (auth before the query)", async () => {
    expectError(await get("/v1/payouts?limit=0", undefined), 401, "unauthorized");
    expectError(await get("/v1/chargebacks?limit=abc", undefined), 401, "unauthorized");
  });
});

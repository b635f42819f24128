// Group commit of refunds and crashes: the core is killed (SIGKILL) while hundreds of refunds are
// batched in it. One batch is one transaction, so once clients retry each key has exactly one refund:
// none lost (a key whose answer was lost is refunded on retry), none doubled (a key that was refunded
// replays its refund), and every payment's refunds and ledger agree.

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey } from "./support/http.ts";
import { killCoreMidFlight } from "./support/kill-mid-flight.ts";
import { useStack, validBody } from "./support/expect.ts";

// The facade answers 503 processor_unavailable at once while the core is down.
const stack = useStack({ allow503: true, env: { REFUND_BATCH: "on" } });
let m: Merchant;
const payments: string[] = [];

beforeAll(async () => {
  const s = stack();
  m = await s.admin.createMerchant({ name: "Tienda Kill Reembolsos" });
  for (let i = 0; i < 16; i++) {
    const res = await s.http.createPayment(m.testApiKey, validBody({ amount: "100000" }));
    expect(res.status, res.text).toBe(201);
    await s.admin.simulate(res.json.id as string, "succeed");
    payments.push(res.json.id as string);
  }
});

describe("kill -9 of a core mid-refund-batch", () => {
  test("no key with zero or two refunds; every retry answers the key's one refund; ledger and refunds agree", async () => {
    const s = stack();
    const keys = Array.from({ length: 400 }, () => newIdemKey());
    // Request i refunds i % 7 + 1 minor units of payment i % 16.
    const body = (i: number) => ({ payment_id: payments[i % payments.length], amount: String((i % 7) + 1) });
    const refund = (i: number) => s.http.post("/v1/refunds", { key: m.testApiKey, body: body(i), idem: keys[i] });
    const { retried } = await killCoreMidFlight(s, keys.length, refund);
    retried.forEach((r, i) => expect(r.json).toMatchObject(body(i)));
    // Exactly one refund per key: as many refunds as keys, each answered to its own key.
    const ids = retried.map((r) => r.json.id as string);
    expect(new Set(ids).size).toBe(keys.length);
    const [total] = await s.sql<{ n: string }>(`select count(*)::text as n from refunds where merchant_id = $1 and id = any($2)`, [m.merchantId, ids]);
    expect(total!.n).toBe(String(keys.length));
    const [all] = await s.sql<{ n: string }>(`select count(*)::text as n from refunds where merchant_id = $1`, [m.merchantId]);
    expect(all!.n).toBe(String(keys.length));
    // Each payment's refunds sum to what its requests asked, and each refund has one balanced ledger transaction.
    const asked = new Map<string, number>();
    keys.forEach((_, i) => asked.set(body(i).payment_id!, (asked.get(body(i).payment_id!) ?? 0) + (i % 7) + 1));
    const sums = await s.sql<{ payment_id: string; total: string }>(
      `select payment_id, sum(amount)::text as total from refunds where merchant_id = $1 group by payment_id`,
      [m.merchantId],
    );
    expect(Object.fromEntries(sums.map((r) => [r.payment_id, Number(r.total)]))).toEqual(Object.fromEntries(asked));
    const ledger = await s.sql<{ refund_id: string; total: string }>(
      `select t.refund_id, sum(l.amount)::text as total from ledger_transactions t join ledger_lines l on l.transaction_id = t.id
       where t.kind = 'refund' and t.merchant_id = $1 group by t.refund_id`,
      [m.merchantId],
    );
    expect(ledger).toHaveLength(keys.length);
    expect(ledger.filter((r) => r.total !== "0")).toEqual([]);
  });
});

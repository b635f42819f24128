// Group commit and crashes: the core is killed (SIGKILL) while hundreds of creations are batched in
// it. One batch is one statement, so each key ends with exactly one payment once clients retry:
// none lost (a key whose answer was lost is created on retry), none doubled (a key that was
// created replays its payment).

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey } from "./support/http.ts";
import { killCoreMidFlight } from "./support/kill-mid-flight.ts";
import { useStack, validBody } from "./support/expect.ts";

// The facade answers 503 processor_unavailable at once while the core is down.
const stack = useStack({ allow503: true, env: { CREATE_BATCH: "on" } });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Kill" });
});

describe("kill -9 of a core mid-batch", () => {
  test("no key with zero or two payments; every retry answers the key's one payment", async () => {
    const s = stack();
    const keys = Array.from({ length: 400 }, () => newIdemKey());
    const body = (i: number) => validBody({ amount: String(10_000 + i) });
    const { retried } = await killCoreMidFlight(s, keys.length, (i) => s.http.createPayment(m.testApiKey, body(i), { idem: keys[i] }));
    retried.forEach((r, i) => expect(r.json.amount).toBe(String(10_000 + i)));
    // Exactly one payment per key, and no payment without a key.
    const perKey = await s.sql<{ key: string; payments: string }>(
      `select k.key, count(p.id)::text as payments from idempotency_keys k left join payments p on p.id = k.resource_id
       where k.key = any($1) group by k.key`,
      [keys],
    );
    expect(perKey).toHaveLength(keys.length);
    expect(perKey.filter((row) => row.payments !== "1")).toEqual([]);
    const [total] = await s.sql<{ n: string }>(`select count(*)::text as n from payments where merchant_id = $1`, [m.merchantId]);
    expect(total!.n).toBe(String(keys.length));
    expect(new Set(retried.map((r) => r.json.id)).size).toBe(keys.length);
  });
});

// Group commit and crashes: the core is killed (SIGKILL) while hundreds of creations are batched in
// it. One batch is one statement, so each key ends with exactly one payment once clients retry:
// none lost (a key whose answer was lost is created on retry), none doubled (a key that was
// created replays its payment).

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey, type Res } from "./support/http.ts";
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
    let answered = 0;
    let killed = false;
    const first: (Res | undefined)[] = await Promise.all(
      keys.map((idem, i) =>
        s.http.createPayment(m.testApiKey, body(i), { idem }).then(
          (r) => {
            answered += 1;
            // Kill once a few have come back: the rest are queued in, or in a batch statement of, the core.
            if (answered === 40 && !killed) {
              killed = true;
              process.kill(s.pids().core!, "SIGKILL");
            }
            return r;
          },
          () => undefined,
        ),
      ),
    );
    expect(killed).toBe(true);
    // Some requests were cut off by the kill (it happened mid-flight, not after the work was done).
    expect(first.filter((r) => r?.status !== 201).length).toBeGreaterThan(0);
    await s.stopProcess("core");
    await s.startProcess("core");

    // Clients retry every key with the same body, as a client does on 503 while the facade reconnects:
    // each ends in 201 (a replay where the first attempt committed).
    const retry = async (i: number): Promise<Res> => {
      for (let attempt = 0; ; attempt++) {
        const r = await s.http.createPayment(m.testApiKey, body(i), { idem: keys[i] });
        if (r.status !== 503 || attempt === 50) return r;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const retried: Res[] = [];
    for (let i = 0; i < keys.length; i += 50) {
      retried.push(...(await Promise.all(keys.slice(i, i + 50).map((_, j) => retry(i + j)))));
    }
    retried.forEach((r, i) => {
      expect(r.status, r.text).toBe(201);
      expect(r.json.amount).toBe(String(10_000 + i));
      const before = first[i];
      if (before?.status === 201) {
        expect(r.text).toBe(before.text);
        expect(r.header("idempotent-replayed")).toBe("true");
      }
    });
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
